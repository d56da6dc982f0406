import { ChevronDown, UserRound } from "lucide-react";
import { type ComponentProps, lazy, Suspense } from "react";
import { Link } from "react-router";
import type { PublicUser } from "../../../core/accounts/accounts.schema";

/** The signed-in menu and its dropdown and dialog code load only for a signed-in user (decision 0028). */
const SignedInMenu = lazy(() => import("./signed-in-menu"));
/** A click on the stand-in button while the menu loads: the menu opens once it is here. */
let openWhenLoaded = false;
/**
 * Read while the menu renders, cleared once it is on screen: React may render a component and
 * throw that render away (a navigation is a transition), so a flag consumed in render could be
 * lost to a render that never showed.
 */
export const openWhenLoadedAsked = (): boolean => openWhenLoaded;
export function clearOpenWhenLoaded() {
  openWhenLoaded = false;
}

function initials(user: PublicUser) {
  const text = `${user.first_name.charAt(0)}${user.last_name.charAt(0)}`.trim();
  return (text || user.email.charAt(0)).toUpperCase();
}

/**
 * The user's picture, or their initials. Small beside a name (decorative); large
 * on the settings page, where it stands alone and is named.
 */
export function Avatar({ user, large = false }: { user: PublicUser; large?: boolean }) {
  const size = large ? 96 : 32;
  const box = large ? "h-24 w-24 text-3xl" : "h-8 w-8 text-xs";
  const letters = initials(user);
  return user.avatar ? (
    <img
      src={user.avatar}
      alt={large ? `${user.first_name} ${user.last_name}`.trim() : ""}
      width={size}
      height={size}
      className={`${box} rounded-full object-cover`}
    />
  ) : (
    <span
      aria-hidden="true"
      className={`flex ${box} shrink-0 items-center justify-center rounded-full bg-sea-600 font-bold text-white`}
    >
      {/* A page shared by the role shows the person's initials once the browser has fetched them (decision 0032). */}
      {letters || <UserRound className="h-1/2 w-1/2" aria-hidden="true" />}
    </span>
  );
}

/**
 * SPEC §2 'User menu'. Logged out: a 'Member Area' link to /manager.
 * Logged in: 'User Profile' opening Members Area (or Go to Website in the admin layout), Settings, Logout.
 */
export function UserMenu({ user, inAdmin = false }: { user: PublicUser | null; inAdmin?: boolean }) {
  if (!user) {
    return (
      <Link to="/manager" className="btn-outline">
        <UserRound className="h-4 w-4" aria-hidden="true" />
        Member Area
      </Link>
    );
  }
  return (
    <Suspense
      fallback={
        <UserMenuTrigger
          user={user}
          // Pointer down as well: the menu's own button, which may replace this one between the press
          // and the click, opens on pointer down and would not see the click.
          onPointerDown={() => {
            openWhenLoaded = true;
          }}
          onClick={() => {
            openWhenLoaded = true;
          }}
        />
      }
    >
      <SignedInMenu user={user} inAdmin={inAdmin} />
    </Suspense>
  );
}

/** The menu's button; alone, it stands in while the menu's code loads. */
export function UserMenuTrigger({ user, ...props }: { user: PublicUser } & ComponentProps<"button">) {
  return (
    <button type="button" className="btn-outline py-1.5 pl-1.5" {...props}>
      <Avatar user={user} />
      User Profile
      <ChevronDown className="h-4 w-4" aria-hidden="true" />
    </button>
  );
}
