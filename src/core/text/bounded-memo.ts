// A pure function's results by key, for values asked for on every call of a log (a day's name, a model's price
// entry) whose keys are few in any real log: emptied when it holds `max` of them, so a log of endless distinct keys
// costs time, never unbounded memory.

export function boundedMemo<K, V extends NonNullable<unknown> | null>(compute: (key: K) => V, max: number): (key: K) => V {
  const values = new Map<K, V>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined) {
      value = compute(key);
      if (values.size >= max) values.clear();
      values.set(key, value);
    }
    return value;
  };
}
