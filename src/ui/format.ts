// Number formatting shared by every view. Estimated counts (all Claude counts) always carry ≈.

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
