import { LogOut, Settings, UserRound } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import type { PublicUser } from "../../../core/accounts/accounts.schema";
import { LogoutDialog } from "./logout-dialog";
import { clearOpenWhenLoaded, openWhenLoadedAsked, UserMenuTrigger } from "./user-menu";

/** The signed-in user's menu (see UserMenu): Members Area or Go to Website, Settings, Logout. */
export default function SignedInMenu({ user, inAdmin }: { user: PublicUser; inAdmin: boolean }) {
  const [logoutOpen, setLogoutOpen] = useState(false);
  const [open, setOpen] = useState(openWhenLoadedAsked);
  // Asked again once on screen: a press on the stand-in button between this menu's render and its
  // commit (a transition's render is not committed at once) set the flag after useState read it.
  useEffect(() => {
    if (openWhenLoadedAsked()) setOpen(true);
    clearOpenWhenLoaded();
  }, []);
  return (
    <>
      <DropdownMenu.Root modal={false} open={open} onOpenChange={setOpen}>
        <DropdownMenu.Trigger asChild>
          <UserMenuTrigger user={user} />
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
