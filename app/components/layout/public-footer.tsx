import { Mail, Phone } from "lucide-react";
import { Link, useLocation } from "react-router";
import { requestKindOf } from "../../../core/join/join.values";
import { ABOUT_PAGES, SERVICES_PAGES } from "../../../core/pages/fixed-pages";
import type { SiteSettings } from "../../../core/settings/settings.schema";
import { Island } from "../../islands/island";
import { MEETINGS_PAGES } from "../../lib/site-map";
import { RegistrationClosed, useRegistrationState } from "../events/registration-closed";
import { Logo } from "./logo";
import { PrivacyDialog } from "./privacy-dialog";
import { JoinFormIsland, UserMenuIsland } from "./public-islands";
import { SocialIcons } from "./social-icons";

const footerLink = "text-sm text-navy-100 hover:text-white hover:underline";

function Column({ title, links }: { title: string; links: { label: string; to: string }[] }) {
  return (
    <div>
      <h2 className="text-sm font-semibold tracking-wider text-white uppercase">{title}</h2>
      <ul className="mt-3 space-y-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className={footerLink}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** SPEC §1, §2 'Public layout': the footer with the contact form block, navigation and contact data. */
export function PublicFooter({ settings, renderedAt }: { settings: SiteSettings; renderedAt: number }) {
  const { pathname } = useLocation();
  const registration = requestKindOf(pathname) === "registration";
  // A meeting that takes no more registrations says so instead of offering the form.
  const state = useRegistrationState();
  const closed = registration && state && !state.open ? state.message : null;
  const email = settings["site.email"];
  const phone = settings["site.phone"];
  return (
    <footer>
      <section id="contact-us" aria-labelledby="contact-us-title" className="scroll-mt-32 bg-navy-50">
        <div className="mx-auto grid max-w-7xl gap-8 px-4 py-14 sm:px-6 lg:grid-cols-2 lg:items-center">
          <div>
            <p className="text-sm font-semibold tracking-widest text-sea-600 uppercase">Membership</p>
            <h2 id="contact-us-title" className="mt-2 font-display text-3xl font-bold text-navy-900 sm:text-4xl">
              Join the community
            </h2>
            <p className="mt-4 max-w-xl text-slate-700">
              {closed
                ? "This meeting takes no more registrations. Questions about it can be sent to the secretariat by e-mail or phone."
                : registration
                  ? "Register for this meeting with your company's details. You will receive the registration details by e-mail, and the secretariat confirms every registration within 48 hours."
                  : "Manufacturers, service companies and integrators of marine radio and electronics work together in the association on standards, safety and the future of digital navigation. Tell us about your company and we will get in touch."}
            </p>
          </div>
          <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            {pathname === "/join" ? (
              <p className="text-slate-700">The form is above.</p>
            ) : closed ? (
              <RegistrationClosed message={closed} className="" />
            ) : (
              <Island name="join-form" component={JoinFormIsland} props={{ startedAt: renderedAt }} />
            )}
          </div>
        </div>
      </section>
      <div className="bg-navy-900 text-navy-100">
        <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-5">
          <div className="space-y-4 lg:col-span-2">
            <Link to="/" aria-label={`${settings["site.name"]} home`} className="inline-block">
              <Logo name={settings["site.name"]} tagline={settings["site.tagline"]} inverted />
            </Link>
            <ul className="space-y-2 text-sm">
              {email ? (
                <li>
                  <a href={`mailto:${email}`} className="inline-flex items-center gap-2 hover:text-white">
                    <Mail className="h-4 w-4" aria-hidden="true" />
                    {email}
                  </a>
                </li>
              ) : null}
              {phone ? (
                <li>
                  <a
                    href={`tel:${phone.replace(/[^\d+]/g, "")}`}
                    className="inline-flex items-center gap-2 hover:text-white"
                  >
                    <Phone className="h-4 w-4" aria-hidden="true" />
                    {phone}
                  </a>
                </li>
              ) : null}
            </ul>
            <div className="text-white">
              <SocialIcons settings={settings} className="h-5 w-5" />
            </div>
            <div className="flex flex-wrap items-center gap-3 pt-2">
              <Link to="/members-join" className="btn bg-signal-500 text-navy-950 hover:bg-signal-600">
                Become a member
              </Link>
              <div className="[&_.btn-outline]:border-white/30 [&_.btn-outline]:bg-transparent [&_.btn-outline]:text-white [&_.btn-outline:hover]:bg-white/10">
                <Island name="user-menu" component={UserMenuIsland} props={{}} />
              </div>
            </div>
          </div>
          <Column
            title="About"
            links={[{ label: "Home", to: "/" }, ...ABOUT_PAGES.slice(0, 5), { label: "Tributes", to: "/tributes" }]}
          />
          <Column title="Meetings" links={MEETINGS_PAGES} />
          <Column
            title="Services"
            links={[...SERVICES_PAGES.slice(0, 8), { label: "Document library", to: "/library" }]}
          />
        </div>
        <div className="border-t border-navy-800">
          <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 py-5 text-xs sm:flex-row sm:px-6">
            <p>© Copyright. 2022. {settings["site.name"]}</p>
            <div className="flex items-center gap-4">
              <Link to="/#contact-us" className={footerLink}>
                Contact form
              </Link>
              <Island name="privacy-dialog" component={PrivacyDialog} props={{ triggerClassName: footerLink }} />
            </div>
          </div>
        </div>
      </div>
    </footer>
  );
}
