// Number formatting shared by the web app and the HTML report. Estimated counts (all Claude counts) always carry ≈.

const grouped = new Intl.NumberFormat('en-US');

export function formatCount(value: number): string {
  return grouped.format(Math.round(value));
}

export function formatTokens(value: number, exact: boolean): string {
  return `${exact ? '' : '≈'}${formatCount(value)}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return '–';
  const share = (100 * part) / whole;
  return share > 0 && share < 0.1 ? '<0.1%' : `${share.toFixed(1)}%`;
}

const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });

/** A price in US dollars to four decimals (request prices are often fractions of a cent). */
export function formatUsd(value: number): string {
  return `${value < 0 ? '-' : ''}$${dollars.format(Math.abs(value))}`;
}
