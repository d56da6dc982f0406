import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { invalidInput } from "../../lib/validation";
import type { Viewer } from "../library/library.values";
import { createNotificationsRepository, type NotificationsRepository } from "./notifications.repository";
import {
  DEFAULT_PREFERENCES,
  FOLLOWED_ONCE,
  type Follow,
  NOT_FOLLOWED,
  type Preferences,
  type PreferencesUpdate,
  UNKNOWN_CATEGORY,
  type Unfollow,
} from "./notifications.schema";
import { readUnsubscribeToken, type UnsubscribeKind } from "./unsubscribe";

const keyOf = (f: { kind: string; id?: number }) => `${f.kind}:${f.id ?? ""}`;

/**
 * What members follow and how they hear of it (issue 33). A member who has chosen nothing has the
 * defaults (news and meetings in the weekly digest, announcements on); their first change writes
 * the defaults and the change together, so that following a category never silently drops the
 * news and meetings they had by default.
 */
export function createNotificationsService(deps: {
  repository: NotificationsRepository;
  transaction: <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;
  /** Whether this viewer may see the library category (they may follow only those). */
  canSeeCategory: (id: number, viewer: Viewer) => Promise<boolean>;
  clock: Clock;
  /** The key one-click unsubscribe addresses are signed with (decision 0065). */
  unsubscribeKey: () => Promise<Buffer>;
}) {
  const { repository, clock } = deps;

  /** The member's choices, and whether they are stored (none: the defaults). */
  async function stored(repo: NotificationsRepository, userId: number): Promise<[Preferences, boolean]> {
    const saved = await repo.preferencesOf(userId);
    if (!saved) return [DEFAULT_PREFERENCES, false];
    const follows = await repo.followsOf(userId);
    const preferences: Preferences = {
      follows: follows.map((f) =>
        f.category_id === null
          ? { kind: f.kind, delivery: f.delivery }
          : { kind: f.kind, id: f.category_id, delivery: f.delivery },
      ),
      digest: saved.digest,
      announcements: saved.announcements === 1,
    };
    return [preferences, true];
  }

  const read = async (repo: NotificationsRepository, userId: number) => (await stored(repo, userId))[0];

  async function checkCategories(
    follows: { kind: string; id?: number }[],
    viewer: Viewer,
    field: (i: number) => string,
  ) {
    const errors: Record<string, string[]> = {};
    await Promise.all(
      follows.map(async (f, i) => {
        if (f.kind === "category" && f.id !== undefined && !(await deps.canSeeCategory(f.id, viewer))) {
          errors[field(i)] = [UNKNOWN_CATEGORY];
        }
      }),
    );
    if (Object.keys(errors).length > 0) throw invalidInput(errors);
  }

  /** The member's choices as they stand, made explicit (their first change keeps the defaults). */
  async function current(repo: NotificationsRepository, userId: number, now: string): Promise<Preferences> {
    const [preferences, isStored] = await stored(repo, userId);
    if (!isStored) {
      await repo.savePreferences(userId, preferences, now);
      await repo.addFollows(userId, preferences.follows, now);
    }
    return preferences;
  }

  /** Which member and kind of mail a one-click unsubscribe address names, or null when it is not one of ours. */
  async function unsubscribeTarget(token: string): Promise<{ userId: number; kind: UnsubscribeKind } | null> {
    const target = readUnsubscribeToken(await deps.unsubscribeKey(), token);
    return target && (await repository.accountExists(target.userId)) ? target : null;
  }

  return {
    preferences: (userId: number): Promise<Preferences> => read(repository, userId),

    async update(userId: number, viewer: Viewer, input: PreferencesUpdate): Promise<Preferences> {
      if (input.follows) {
        const seen = new Set<string>();
        input.follows.forEach((f, i) => {
          if (seen.has(keyOf(f))) throw invalidInput({ [`follows.${i}`]: [FOLLOWED_ONCE] });
          seen.add(keyOf(f));
        });
        await checkCategories(input.follows, viewer, (i) => `follows.${i}.id`);
      }
      const now = clock().toISOString();
      return deps.transaction(async (trx) => {
        const repo = createNotificationsRepository(trx);
        const before = await current(repo, userId, now);
        await repo.savePreferences(
          userId,
          { digest: input.digest ?? before.digest, announcements: input.announcements ?? before.announcements },
          now,
        );
        if (input.follows) {
          await repo.removeFollows(userId);
          await repo.addFollows(userId, input.follows, now);
        }
        return read(repo, userId);
      });
    },

    /** Follows one thing, or changes how it is delivered when it is followed already. */
    async follow(userId: number, viewer: Viewer, follow: Follow): Promise<Preferences> {
      await checkCategories([follow], viewer, () => "id");
      const now = clock().toISOString();
      return deps.transaction(async (trx) => {
        const repo = createNotificationsRepository(trx);
        await current(repo, userId, now);
        await repo.removeFollow(userId, follow.kind, follow.id ?? null);
        await repo.addFollows(userId, [follow], now);
        return read(repo, userId);
      });
    },

    unsubscribeTarget,

    /**
     * Stops one kind of mail for the member a one-click address names (RFC 8058): the instant
     * notices (their instant follows end; the digest goes on), the digest (never), or the
     * announcements (off). Answers the kind, or null when the address is not one of ours. Doing it
     * twice is doing it once.
     */
    async unsubscribe(token: string): Promise<UnsubscribeKind | null> {
      const target = await unsubscribeTarget(token);
      if (!target) return null;
      const now = clock().toISOString();
      await deps.transaction(async (trx) => {
        const repo = createNotificationsRepository(trx);
        const before = await current(repo, target.userId, now);
        if (target.kind === "notices") await repo.removeInstantFollows(target.userId);
        else {
          await repo.savePreferences(
            target.userId,
            {
              digest: target.kind === "digest" ? "never" : before.digest,
              announcements: target.kind === "announcements" ? false : before.announcements,
            },
            now,
          );
        }
      });
      return target.kind;
    },

    async unfollow(userId: number, target: Unfollow): Promise<Preferences> {
      const now = clock().toISOString();
      return deps.transaction(async (trx) => {
        const repo = createNotificationsRepository(trx);
        const before = await current(repo, userId, now);
        if (!before.follows.some((f) => keyOf(f) === keyOf(target))) throw new AppError("not_found", NOT_FOLLOWED);
        await repo.removeFollow(userId, target.kind, target.id ?? null);
        return read(repo, userId);
      });
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
