// The one way both languages quote what a person typed or should type: “…”.
export function quote(input: string): string {
  return `“${input}”`;
}
