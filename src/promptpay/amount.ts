// The largest PromptPay amount, a fact of the QR format: the bot refuses more, and the sandbox's QR maker too.

/** 9,999,999,999.99 baht in satang: the EMVCo amount field (tag 54) holds 13 characters. */
export const MAX_AMOUNT_SATANG = 999_999_999_999;
