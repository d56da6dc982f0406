import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Who is acting, for the records that say who changed what (revisions, the audit log; issue 34):
 * the signed-in person and the request's address. The HTTP layer opens the scope once per request
 * (server/app.ts, after the session is read), so no service's signature carries it and no write
 * can forget it; work outside a request (jobs, the demo seed, tests calling services) has no actor
 * unless it opens a scope itself, and is recorded as the system's.
 */
export type Actor = {
  userId: number | null;
  name: string;
  ip: string | null;
  /** How many audit rows the work wrote: the HTTP layer writes a plain one for a write that wrote none. */
  recorded?: number;
};

export const SYSTEM_ACTOR: Actor = { userId: null, name: "System", ip: null };

const scope = new AsyncLocalStorage<Actor>();

/** Runs `work` as `actor`: every record written meanwhile names them. */
export function actingAs<T>(actor: Actor, work: () => T): T {
  return scope.run(actor, work);
}

/** The actor of the work under way; the system's outside any scope. */
export function currentActor(): Actor {
  return scope.getStore() ?? SYSTEM_ACTOR;
}
