// Column widths that fit their longest value: the shared grid draws only the rows in view, each row a grid of its
// own, so columns cannot size to content by themselves; a numeric column gets the width of its longest formatted
// value (digits are tabular, so characters measure it), and never clips a number.

/** The `grid-template-columns` of a column that holds at most `chars` characters (plus its 8 px paddings). */
export function fitWidth(chars: number, minChars = 3): string {
  // Bold (the selected row) and "≈" run a little wider than a regular "0", which is what `ch` measures.
  return `calc(${(Math.max(chars, minChars) * 1.12).toFixed(2)}ch + 18px)`;
}

/** The longest of `count` values as `text(i)` writes them, with the header title counted too (it must fit as well). */
export function longest(count: number, text: (i: number) => string, title: string): number {
  let max = title.length + 2; // the sort arrow
  for (let i = 0; i < count; i++) max = Math.max(max, text(i).length);
  return max;
}
