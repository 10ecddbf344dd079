// The one number formatter every front end uses (terminal, HTML report, app, findings' messages): counts grouped
// en-US style, money in US dollars to four decimals (request prices are often fractions of a cent), shares to one
// decimal. Estimated counts (all Claude counts) always carry ≈.

const grouped = new Intl.NumberFormat('en-US');
const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });
const wholeDollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Smallest amount four decimals show; a non-zero amount below it reads "<$0.0001", never as free. */
const SMALLEST_USD = 0.0001;

export function formatCount(value: number): string {
  return grouped.format(Math.round(value));
}

/** A token count: exact ones plain, estimates with ≈. */
export function formatTokens(value: number, exact: boolean): string {
  return `${exact ? '' : '≈'}${formatCount(value)}`;
}

/** An estimate's relative band (RequestTokens.band) as the ± the app and the terminal print: 0.2 → ±20%. */
export function formatBand(band: number): string {
  return `±${Math.round(band * 100)}%`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `part` as a share of `whole` to one decimal; "–" when there is no whole, "<0.1%" for a sliver. */
export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return '–';
  const share = (100 * part) / whole;
  if (share > 0 && share < 0.1) return '<0.1%';
  return `${share.toFixed(1)}%`;
}

/** A fraction (0.811) as a percent ("81.1%"); "n/a" for none. Negative fractions keep their sign. */
export function formatFraction(fraction: number | null): string {
  if (fraction === null || !Number.isFinite(fraction)) return 'n/a';
  return fraction < 0 ? `-${formatPercent(-fraction, 1)}` : formatPercent(fraction, 1);
}

/** US dollars to four decimals, grouped ("$1,234.5678"); "<$0.0001" for a non-zero amount four decimals round away. */
export function formatUsd(value: number): string {
  const sign = value < 0 ? '-' : '';
  const size = Math.abs(value);
  if (size > 0 && size < SMALLEST_USD / 2) return `${sign}<$0.0001`;
  return `${sign}$${dollars.format(size)}`;
}

/** Large sums (a projection over 1,000 sessions) to the cent: "$283,873.42". */
export function formatUsdCents(value: number): string {
  return `${value < 0 ? '-' : ''}$${wholeDollars.format(Math.abs(value))}`;
}

/** A change with its sign: "+1,204", "-$3.5453", "+2.1 pp" — `format` renders the size. */
export function formatSigned(value: number, format: (size: number) => string): string {
  if (value === 0) return format(0);
  return `${value > 0 ? '+' : '-'}${format(Math.abs(value))}`;
}
