// The sandbox slip service as other packages use it: started in a process of their own (local mode, the
// bot's tests, the benches), its demo shops, and the pieces the benches time on their own.
export { startSandbox } from "./server.js";
export type { RunningSandbox, SandboxOptions } from "./server.js";
export { openStore } from "./store.js";
export type { SandboxStore } from "./store.js";
export { DEMO_PROMPTPAY_ID, DEMO_SECRETS, DEMO_STORE_NAMES, demoShopId } from "./demo.js";
export { simulatePaymentAt } from "./dev-payments.js";
export { slipPhotosAt } from "./slip-photos.js";
export type { SlipPhoto, SlipPhotoChoice } from "./slip-photos.js";
export { renderSlipPng } from "./slip-png.js";
export { parseHistoryQuery } from "./params.js";
export { buildPromptPayPayload } from "./emvco.js";
export type { PromptPayTarget } from "./emvco.js";
export { renderQrPng } from "./qr-png.js";
