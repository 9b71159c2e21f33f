// A pino destination that keeps every line, so tests can read what the bot logged and check what it must never log.
import type { DestinationStream } from "pino";

export interface CapturedLogs extends DestinationStream {
  /** Every line as written (after redaction). */
  readonly text: () => string;
  /** Every line parsed. */
  readonly entries: () => Record<string, unknown>[];
}

export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  return {
    write(line: string) {
      lines.push(line);
    },
    text: () => lines.join(""),
    entries: () =>
      lines
        .join("")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
