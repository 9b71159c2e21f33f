// Types for `promptpay-qr` (dtinth), an untyped CommonJS reference generator used only by tests and benches.
declare module "promptpay-qr" {
  /** PromptPay payload for an id (non-digits stripped; 15+ digits e-wallet, 13+ tax id, else phone). */
  function generatePayload(target: string, options: { amount?: number }): string;
  export = generatePayload;
}
