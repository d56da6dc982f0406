/** Services take a clock so that tests can move time instead of waiting. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
