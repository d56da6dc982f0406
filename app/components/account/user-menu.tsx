import { ChevronDown, LogOut, Settings, UserRound } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useState } from "react";
import { Link } from "react-router";
import type { PublicUser } from "../../../core/accounts/accounts.schema";
import { LogoutDialog } from "./logout-dialog";

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
      {initials(user)}
    </span>
  );
}

/**
 * SPEC §2 'User menu'. Logged out: a 'Member Area' link to /manager.
 * Logged in: 'User Profile' opening Members Area (or Go to Website in the admin layout), Settings, Logout.
 */
export function UserMenu({ user, inAdmin = false }: { user: PublicUser | null; inAdmin?: boolean }) {
  const [logoutOpen, setLogoutOpen] = useState(false);
  if (!user) {
    return (
      <Link to="/manager" className="btn-outline">
        <UserRound className="h-4 w-4" aria-hidden="true" />
        Member Area
      </Link>
    );
  }
  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className="btn-outline py-1.5 pl-1.5">
          <Avatar user={user} />
          User Profile
          <ChevronDown className="h-4 w-4" aria-hidden="true" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={8}
            className="z-50 min-w-56 rounded-lg border border-slate-200 bg-white p-1.5 shadow-xl"
          >
            <DropdownMenu.Label className="px-3 py-2 text-xs text-slate-500">
              Signed in as <span className="font-semibold text-slate-700">{user.email}</span>
            </DropdownMenu.Label>
            <DropdownMenu.Item asChild>
              <Link
                to={inAdmin ? "/" : "/manager"}
                className="flex items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-navy-50"
              >
                <UserRound className="h-4 w-4" aria-hidden="true" />
                {inAdmin ? "Go to Website" : "Members Area"}
              </Link>
            </DropdownMenu.Item>
            <DropdownMenu.Item asChild>
              <Link
                to="/dashboard/user-settings"
                className="flex items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-navy-50"
              >
                <Settings className="h-4 w-4" aria-hidden="true" />
                Settings
              </Link>
            </DropdownMenu.Item>
            <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
            <DropdownMenu.Item
              onSelect={() => setLogoutOpen(true)}
              className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-navy-50"
            >
              <LogOut className="h-4 w-4" aria-hidden="true" />
              Logout
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <LogoutDialog open={logoutOpen} onOpenChange={setLogoutOpen} />
    </>
  );
}
