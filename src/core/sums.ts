// Field-wise sums of count records: folding one part's counts into a running total.

/** The keys of T whose values are numbers. */
export type NumberKey<T> = { [K in keyof T]: T[K] extends number ? K : never }[keyof T];

/** Adds `from`'s value of each named field to `into`'s. */
export function addFields<T>(into: T, from: T, keys: readonly NumberKey<T>[]): void {
  for (const key of keys) (into[key] as number) += from[key] as number;
}
