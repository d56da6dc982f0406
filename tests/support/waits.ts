/**
 * How long a test waits for the page cache's, answer cache's and calendar's brotli at quality 11,
 * made in the background one body at a time (decision 0029): well under a second on a quiet machine,
 * seconds on a loaded one (CI on two cores), so not vi.waitFor's default of one second.
 */
export const BACKGROUND_BROTLI = { timeout: 20_000, interval: 50 };
