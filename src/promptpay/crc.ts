// The checksum of a PromptPay (EMVCo) payload: CRC-16/CCITT-FALSE, written as 4 upper-case hex digits.

// The table for poly 0x1021 (MSB first), built once at load.
const CRC16_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
    table[byte] = crc;
  }
  return table;
})();

/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, xorout 0) of the UTF-8 bytes of `text`,
 * as 4 upper-case hex digits. PromptPay payloads are ASCII, so bytes and characters coincide. A payload's
 * CRC covers everything before its 4 digits, the `6304` that introduces them included.
 */
export function crc16CcittFalse(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  let crc = 0xffff;
  for (const byte of bytes) {
    crc = ((crc << 8) & 0xffff) ^ (CRC16_TABLE[((crc >> 8) ^ byte) & 0xff] ?? 0);
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}
