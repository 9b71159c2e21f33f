// Test helper: walks rendered messages and lists every LINE message limit they break.
import type { messagingApi } from "@line/bot-sdk";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const count = (s: string): number => Array.from(graphemes.segment(s)).length;

function imageUrlProblem(url: unknown, where: string): string[] {
  if (typeof url !== "string") return [`${where}: no url`];
  const problems: string[] = [];
  if (url.length > 2000) problems.push(`${where}: url of ${url.length} chars`);
  const parsed = new URL(url);
  const loopback = parsed.protocol === "http:" && ["127.0.0.1", "localhost"].includes(parsed.hostname);
  if (parsed.protocol !== "https:" && !loopback) problems.push(`${where}: ${parsed.protocol} url`);
  return problems;
}

function actionProblems(action: messagingApi.Action, where: string, labelMax: number): string[] {
  const problems: string[] = [];
  if (action.label !== undefined && count(action.label) > labelMax) {
    problems.push(`${where}: label "${action.label}" has ${count(action.label)} graphemes`);
  }
  if (action.type === "postback") {
    if ((action.data ?? "").length === 0 || (action.data ?? "").length > 300) problems.push(`${where}: postback data length ${action.data?.length}`);
    if ((action.displayText ?? "").length > 300) problems.push(`${where}: displayText too long`);
  }
  if (action.type === "message" && ((action.text ?? "").length === 0 || (action.text ?? "").length > 300)) {
    problems.push(`${where}: message text length ${action.text?.length}`);
  }
  return problems;
}

function walkFlex(node: unknown, where: string): string[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => walkFlex(n, `${where}[${i}]`));
  if (node === null || typeof node !== "object") return [];
  const problems: string[] = [];
  const record = node as Record<string, unknown>;
  if (record.type === "image") problems.push(...imageUrlProblem(record.url, where));
  if (record.type === "text" && typeof record.text === "string" && (record.text.length === 0 || record.text.length > 5000)) {
    problems.push(`${where}: flex text length ${record.text.length}`);
  }
  if (record.type === "button") problems.push(...actionProblems(record.action as messagingApi.Action, where, 40));
  else if (record.action !== undefined) problems.push(...actionProblems(record.action as messagingApi.Action, where, 40));
  for (const [key, value] of Object.entries(record)) {
    if (key !== "action" && typeof value === "object") problems.push(...walkFlex(value, `${where}.${key}`));
  }
  return problems;
}

/** Every broken limit, as readable strings; an empty list means LINE would accept the messages. */
export function lineLimitProblems(messages: readonly messagingApi.Message[]): string[] {
  const problems: string[] = [];
  if (messages.length === 0 || messages.length > 5) problems.push(`${messages.length} messages`);
  messages.forEach((message, i) => {
    const where = `messages[${i}]`;
    if (message.type === "text" && (message.text.length === 0 || message.text.length > 5000)) {
      problems.push(`${where}: text length ${message.text.length}`);
    }
    if (message.type === "flex") {
      if (message.altText.length === 0 || message.altText.length > 1500) problems.push(`${where}: altText length ${message.altText.length}`);
      const bytes = Buffer.byteLength(JSON.stringify(message.contents), "utf8");
      if (bytes > 30_000) problems.push(`${where}: bubble of ${bytes} bytes`);
      problems.push(...walkFlex(message.contents, `${where}.contents`));
    }
    if (message.type === "image") {
      problems.push(...imageUrlProblem(message.originalContentUrl, `${where}.originalContentUrl`));
      problems.push(...imageUrlProblem(message.previewImageUrl, `${where}.previewImageUrl`));
    }
    const items = message.quickReply?.items ?? [];
    if (items.length > 13) problems.push(`${where}: ${items.length} quick replies`);
    items.forEach((item, j) => {
      if (item.action === undefined || item.action.label === undefined) problems.push(`${where}.quickReply[${j}]: no label`);
      else problems.push(...actionProblems(item.action, `${where}.quickReply[${j}]`, 20));
    });
  });
  return problems;
}

/** All the text a person sees in the messages, joined, for "does it say X" assertions. */
export function visibleText(messages: readonly messagingApi.Message[]): string {
  const parts: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      if (record.type === "text" && Array.isArray(record.contents)) {
        // Spans show on one line, as one text.
        parts.push((record.contents as { text?: string }[]).map((span) => span.text ?? "").join(""));
        return;
      }
      if (record.type === "text" && typeof record.text === "string") parts.push(record.text);
      for (const [key, value] of Object.entries(record)) if (key !== "action" && typeof value === "object") walk(value);
    }
  };
  for (const message of messages) {
    if (message.type === "text") parts.push(message.text);
    if (message.type === "flex") walk(message.contents);
  }
  return parts.join("\n");
}

export function quickReplyLabels(message: messagingApi.Message | undefined): string[] {
  return (message?.quickReply?.items ?? []).map((item) => item.action?.label ?? "");
}

export function quickReplyTexts(message: messagingApi.Message | undefined): string[] {
  return (message?.quickReply?.items ?? []).map((item) => (item.action?.type === "message" ? (item.action.text ?? "") : ""));
}
