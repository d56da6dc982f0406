import type { FormKind } from "../../../core/join/join.values";
import { Island } from "../../islands/island";
import { CONTACT_SECTION_ID, MESSAGE_FORM_ID } from "../layout/contact-form-link";
import { PageHero } from "../layout/page-hero";
import { Notice } from "../ui/notice";
import { JoinForm, MessageForm } from "./public-form";

/** What /join and /message show again after a refusal (PublicFormActionData, without the server's types). */
type Shown = {
  pagePath?: string;
  errors?: Record<string, string>;
  failure?: string;
  values: Record<string, string>;
  startedAt?: string;
};

const PAGES = {
  join: { eyebrow: "Membership", title: "Join the community" },
  message: { eyebrow: "Contact", title: "Send us a message" },
} as const;

/**
 * /join and /message: a public form's own page, where it posts without JavaScript; a refusal
 * shows above the form, which keeps the values, the page it was sent from and its shown-at time.
 */
export function PublicFormPage({ kind, shown }: { kind: FormKind; shown?: Shown }) {
  const page = PAGES[kind];
  const props = {
    user: null,
    initialValues: shown?.values,
    pagePath: shown?.pagePath,
    serverErrors: shown?.errors,
    startedAt: shown?.startedAt,
  };
  return (
    <div>
      <PageHero eyebrow={page.eyebrow} title={page.title} />
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        {shown?.failure ? (
          <Notice tone="error" className="mb-6">
            {shown.failure}
          </Notice>
        ) : null}
        <div
          // /join leaves out the footer's band (it would repeat this form): the contact form's anchor is this one.
          id={kind === "join" ? CONTACT_SECTION_ID : MESSAGE_FORM_ID}
          // Focused by the footer's 'Contact form' link (a target, not a stop in the Tab order).
          tabIndex={-1}
          className="scroll-mt-32 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 focus:outline-none"
        >
          {kind === "join" ? (
            <Island
              name="join-page-form"
              component={JoinForm}
              // A registration shown again keeps its note field (and what was typed in it).
              props={{ ...props, idPrefix: "join-page", registering: shown?.values?.note !== undefined }}
            />
          ) : (
            <Island name="message-page-form" component={MessageForm} props={props} />
          )}
        </div>
      </div>
    </div>
  );
}
