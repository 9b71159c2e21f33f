// The demo data at any hour: a fresh sandbox, one opened weeks later, one restarted, one whose clock went back.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_SECRETS, FEMALE_NAMES, MALE_NAMES, demoShopId } from "../src/demo.js";
import { openStore, type SandboxStore } from "../src/store.js";
import type { CheckRecord } from "../src/demo-checks.js";

const DAY = 86_400_000;
const opened: SandboxStore[] = [];

function store(): SandboxStore {
  const s = openStore(":memory:");
  opened.push(s);
  return s;
}

afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

/** An instant given as Bangkok wall time. */
function bangkok(wall: string): number {
  return Date.parse(`${wall}+07:00`);
}

function startOfBangkokDay(ms: number): number {
  return bangkok(new Date(ms + 7 * 3_600_000).toISOString().slice(0, 10) + "T00:00:00");
}

function checks(s: SandboxStore, shop: "shop" | "other" | "expired", fromMs?: number, toMs?: number): CheckRecord[] {
  return s.history(demoShopId(shop), { page: 1, limit: 1_000_000, fromMs, toMs }).items;
}

/** What a person sees of a check: everything but the id and the transRef that carries it. */
function seen(c: CheckRecord): string {
  return [c.createdAtMs, c.status, c.amountSatang, c.senderName, c.source, c.transDateMs].join("|");
}

const HOURS = {
  "just after midnight": "2026-12-01T00:00:30",
  "00:05 on the first of a month": "2026-12-01T00:05:00",
  "09:00": "2026-11-24T09:00:00",
  "23:55": "2026-11-24T23:55:00",
  "23:55 on the last day of a month": "2026-11-30T23:55:00",
  "00:05 on New Year's day": "2027-01-01T00:05:00",
  "noon on 29 February": "2028-02-29T12:00:00",
} as const;

describe("a fresh sandbox, at any hour", () => {
  it.each(Object.entries(HOURS))("at %s today holds at least three pages of ten, and nothing is in the future", (_label, wall) => {
    const now = bangkok(wall);
    const s = store();
    expect(s.refreshDemo(now).seeded).toBe(true);
    const today = checks(s, "shop", startOfBangkokDay(now), now);
    expect(today.length).toBeGreaterThanOrEqual(25);
    const all = checks(s, "shop");
    expect(Math.max(...all.map((c) => c.createdAtMs))).toBeLessThanOrEqual(now);
    // The last 7 days hold far more than one page a day.
    expect(checks(s, "shop", startOfBangkokDay(now) - 6 * DAY, now).length).toBeGreaterThan(150);
    expect(Math.min(...all.map((c) => c.createdAtMs))).toBeGreaterThanOrEqual(startOfBangkokDay(now) - 89 * DAY);
  });

  it("spreads the extra checks of an early start over the hours gone by, not into the minute just begun", () => {
    const now = bangkok("2026-11-24T09:00:30");
    const s = store();
    s.refreshDemo(now);
    const today = checks(s, "shop", startOfBangkokDay(now), now);
    expect(today.length).toBeGreaterThanOrEqual(25);
    expect(today.filter((c) => c.createdAtMs >= bangkok("2026-11-24T09:00:00")).length).toBeLessThanOrEqual(2);
    // Most fall in the opening hours, as the day's shape says, not in the small hours.
    expect(today.filter((c) => c.createdAtMs >= bangkok("2026-11-24T06:00:00")).length).toBeGreaterThan(today.length / 2);
  });

  it("is the same on every machine for the same clock", () => {
    const now = bangkok(HOURS["09:00"]);
    const a = store();
    const b = store();
    a.refreshDemo(now);
    b.refreshDemo(now);
    for (const shop of ["shop", "other", "expired"] as const) expect(checks(a, shop)).toEqual(checks(b, shop));
  });

  it("looks like a café's day: most checks in opening hours, more at the weekend than on a Monday", () => {
    const now = bangkok("2026-11-24T23:55:00");
    const s = store();
    s.refreshDemo(now);
    const all = checks(s, "shop");
    const hourOf = (c: CheckRecord) => new Date(c.createdAtMs + 7 * 3_600_000).getUTCHours();
    const open = all.filter((c) => hourOf(c) >= 7 && hourOf(c) < 21).length;
    expect(open / all.length).toBeGreaterThan(0.85);
    const weekdayOf = (c: CheckRecord) => new Date(c.createdAtMs + 7 * 3_600_000).getUTCDay();
    const saturdays = all.filter((c) => weekdayOf(c) === 6).length;
    const mondays = all.filter((c) => weekdayOf(c) === 1).length;
    expect(saturdays).toBeGreaterThan(mondays);
    // About 60 a day over 90 days, every status and a stable transRef per check.
    expect(all.length).toBeGreaterThan(4500);
    expect(all.length).toBeLessThan(6500);
    expect(new Set(all.map((c) => c.status)).size).toBe(6);
  });

  it("gives each payer a title that matches the first name: นาย for a man, นาง or น.ส. for a woman", () => {
    const s = store();
    s.refreshDemo(bangkok("2026-11-24T23:55:00"));
    const male = new Set<string>(MALE_NAMES);
    const female = new Set<string>(FEMALE_NAMES);
    const names = checks(s, "shop").flatMap((c) => (c.senderName === null ? [] : [c.senderName]));
    expect(names.length).toBeGreaterThan(1000);
    for (const name of names) {
      const [title, first] = name.split(" ");
      expect(title === "นาย" ? male.has(first ?? "") : female.has(first ?? "") && (title === "นาง" || title === "น.ส."), name).toBe(true);
    }
  });
});

describe("a sandbox database opened again later", () => {
  it("weeks later: fills the gap day by day up to now, with the same checks a fresh sandbox shows for those days", () => {
    const seededAt = bangkok("2026-10-20T15:00:00");
    const now = bangkok("2026-11-24T09:00:00");
    const s = store();
    s.refreshDemo(seededAt);
    const { seeded, added } = s.refreshDemo(now);
    expect(seeded).toBe(false);
    expect(added).toBeGreaterThan(30 * 25);

    // No empty day between the old data and now.
    for (let day = startOfBangkokDay(seededAt) + DAY; day <= startOfBangkokDay(now) - DAY; day += DAY) {
      expect(checks(s, "shop", day, day + DAY - 1).length, new Date(day).toISOString()).toBeGreaterThan(0);
    }
    expect(checks(s, "shop", startOfBangkokDay(now), now).length).toBeGreaterThanOrEqual(25);

    // The days in between are the stream's own days: what a sandbox started fresh now shows for them.
    const fresh = store();
    fresh.refreshDemo(now);
    const between = (x: SandboxStore) => checks(x, "shop", startOfBangkokDay(seededAt) + DAY, startOfBangkokDay(now) - 1).map(seen);
    expect(between(s)).toEqual(between(fresh));

    // New checks come after the old ones in id order too, and transRefs stay unique.
    const all = checks(s, "shop");
    expect(new Set(all.map((c) => c.transRef)).size).toBe(all.length);
  });

  it("months later: the demo shop's package is still active and the expired shop still expired", () => {
    const s = store();
    s.refreshDemo(bangkok("2026-01-10T10:00:00"));
    const now = bangkok("2026-11-24T09:00:00");
    s.refreshDemo(now);
    expect(s.shopBySecret(DEMO_SECRETS.shop)?.expiresAtMs).toBeGreaterThan(now + 150 * DAY);
    expect(s.shopBySecret(DEMO_SECRETS.other)?.expiresAtMs).toBeGreaterThan(now);
    expect(s.shopBySecret(DEMO_SECRETS.expired)?.expiresAtMs).toBeLessThan(now);
    // Only the last 90 days are filled in; the expired shop's checks stop at its expiry.
    const recent = checks(s, "shop", startOfBangkokDay(now) - 89 * DAY, now);
    expect(recent.length).toBeGreaterThan(4500);
    const expiredChecks = checks(s, "expired");
    expect(Math.max(...expiredChecks.map((c) => c.createdAtMs))).toBeLessThan(s.shopBySecret(DEMO_SECRETS.expired)?.expiresAtMs ?? 0);
  });

  it("restarted a minute later: adds nothing twice", () => {
    const now = bangkok("2026-11-24T00:05:00");
    const s = store();
    s.refreshDemo(now);
    const before = checks(s, "shop").map(seen);
    const again = s.refreshDemo(now + 60_000);
    expect(again.added).toBeLessThanOrEqual(1);
    expect(checks(s, "shop").map(seen).slice(again.added)).toEqual(before);
    expect(s.refreshDemo(now + 60_000).added).toBe(0);
  });

  it("with the clock set back: keeps what it has and still fills today", () => {
    const s = store();
    s.refreshDemo(bangkok("2026-11-24T20:00:00"));
    const count = s.checkCount();
    const earlier = bangkok("2026-11-20T00:10:00");
    s.refreshDemo(earlier);
    expect(s.checkCount()).toBeGreaterThanOrEqual(count);
    expect(checks(s, "shop", startOfBangkokDay(earlier), earlier).length).toBeGreaterThanOrEqual(25);
  });

  it("never touches a shop that is not one of the demo shops", () => {
    const dir = mkdtempSync(join(tmpdir(), "slipline-demo-"));
    try {
      const path = join(dir, "sandbox.db");
      const first = openStore(path);
      first.refreshDemo(bangkok("2026-11-01T12:00:00"));
      first.close();
      // Someone's own shop in the same file, with one old check and a package that has expired.
      const db = new Database(path);
      db.prepare("INSERT INTO shops VALUES (42, 'My Shop', ?, 'Own', 1, 0, 1, 1, ?)").run(
        createHash("sha256").update("my-own-secret").digest("hex"),
        bangkok("2026-11-02T00:00:00"),
      );
      db.prepare("INSERT INTO checks VALUES (900000, 42, 'valid', 100, 'MYREF1', NULL, NULL, NULL, NULL, 'api', 1, ?)").run(bangkok("2026-11-01T10:00:00"));
      db.close();

      const s = openStore(path);
      opened.push(s);
      s.refreshDemo(bangkok("2026-11-24T12:00:00"));
      expect(s.history(42, { page: 1, limit: 100 }).items.map((c) => c.transRef)).toEqual(["MYREF1"]);
      expect(s.shopBySecret("my-own-secret")?.expiresAtMs).toBe(bangkok("2026-11-02T00:00:00"));
      // ...while the demo shop did move on.
      expect(checks(s, "shop", startOfBangkokDay(bangkok("2026-11-24T12:00:00"))).length).toBeGreaterThanOrEqual(25);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
