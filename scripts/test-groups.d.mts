// The types of scripts/test-groups.mjs, for test/groups.test.ts.
export interface GroupEntry {
  readonly file: string;
  readonly reasons: readonly string[];
}
export interface TestGroups {
  readonly platform: readonly GroupEntry[];
  readonly date: readonly GroupEntry[];
}
export interface SavedGroups {
  readonly platform: readonly string[];
  readonly date: readonly string[];
}
export function platformReasons(file: string): string[];
export function dateReasons(file: string): string[];
export function testFiles(dir?: string): string[];
export function testGroups(): TestGroups;
export function savedGroups(): SavedGroups;
