// Prettier's settings for the code (TypeScript, JavaScript, JSON): the style the code was written in, with
// long lines (180 columns changed the fewest lines of 160, 170 and 180); double quotes, semicolons and
// trailing commas everywhere are Prettier's defaults. .prettierignore says which files it leaves as they are.
export default {
  printWidth: 180,
  trailingComma: "all",
};
