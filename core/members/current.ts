import { type RawBuilder, type SqlBool, sql } from "kysely";

/**
 * The one SQL form of "current" (decision 0044): the company's status is active and it has no
 * renewal date, or its renewal date is not before `cutoff` (today in the site's zone less the
 * grace period: membership-day.ts). Computed in every query that asks, never stored or swept
 * by a job, so a lapse takes effect on the first request of the day it happens.
 *
 * `company` is the alias of member_companies in the query. Dates are YYYY-MM-DD text on both
 * dialects, so the comparison is the same on SQLite and PostgreSQL. Any area's repository may
 * use it (the session lookup does); it is SQL, not a service.
 */
export function isCurrent(company: string, cutoff: string): RawBuilder<SqlBool> {
  const status = sql.ref(`${company}.status`);
  const renewsOn = sql.ref(`${company}.renews_on`);
  return sql<SqlBool>`(${status} = 'active' and (${renewsOn} is null or ${renewsOn} >= ${cutoff}))`;
}

/** The same condition as 1 or 0 on both dialects, for a select list. */
export function currentFlag(company: string, cutoff: string): RawBuilder<number> {
  return sql<number>`case when ${isCurrent(company, cutoff)} then 1 else 0 end`;
}

/**
 * Whether the company whose id is `companyId` (an integer expression of the outer query) is
 * current: for a query of another table that points at companies by id, such as the site search's
 * entries (whose ref_id is text: the caller guards the cast so it runs for companies' entries only).
 */
export function isCurrentCompany(companyId: RawBuilder<number>, cutoff: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from member_companies as current_company
    where current_company.id = ${companyId} and ${isCurrent("current_company", cutoff)})`;
}
