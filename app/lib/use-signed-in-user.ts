import { useEffect, useState } from "react";
import type { PublicUser } from "../../core/accounts/accounts.schema";
import { useRootData } from "../root";

/**
 * One request per page for the person behind it, however many components ask: keyed by the root's
 * data, which a sign-in, a sign-out or a new page replaces.
 */
const ownUsers = new WeakMap<object, Promise<PublicUser | null>>();

function fetchOwnUser(page: object): Promise<PublicUser | null> {
  let ownUser = ownUsers.get(page);
  ownUser ??= fetch("/api/dashboard/user", { headers: { Accept: "application/json" } })
    .then((response) => (response.ok ? (response.json() as Promise<{ user?: PublicUser }>) : null))
    .then((body) => body?.user ?? null)
    .catch(() => null);
  ownUsers.set(page, ownUser);
  return ownUser;
}

/**
 * The signed-in user, or null. A page shared by every user of a role (decision
 * 0032) was rendered with the role alone: the name, e-mail and picture come
 * from /api/dashboard/user once the page runs, and until then (or without
 * JavaScript) the user is the role with blank details.
 */
export function useSignedInUser(): PublicUser | null {
  const root = useRootData();
  const user = root?.user ?? null;
  const roleOnly = root?.roleOnly ?? false;
  const [own, setOwn] = useState<PublicUser | null>(null);
  useEffect(() => {
    if (!roleOnly || !root) return;
    let current = true;
    void fetchOwnUser(root).then((fetched) => {
      if (current && fetched) setOwn(fetched);
    });
    return () => {
      current = false;
    };
  }, [roleOnly, root]);
  return roleOnly ? (own ?? user) : user;
}
