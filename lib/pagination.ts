/** One page of a list, as every paginated answer carries it (SPEC §7). */
export type Page<T> = {
  data: T[];
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
};

export function pageOf<T>(data: T[], page: number, perPage: number, total: number): Page<T> {
  return { data, current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}
