/**
 * At most `size` tasks at once; the rest wait in arrival order. `busy` and
 * `waiting` say how many run and how many wait, for tests and logs.
 */
export type Slots = {
  run: <T>(task: () => Promise<T>) => Promise<T>;
  readonly busy: number;
  readonly waiting: number;
};

export function createSlots(size: number): Slots {
  let busy = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(task) {
      if (busy < size) busy += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        // The slot passes straight to the next in line, or is freed.
        const following = waiting.shift();
        if (following) following();
        else busy -= 1;
      }
    },
    get busy() {
      return busy;
    },
    get waiting() {
      return waiting.length;
    },
  };
}
