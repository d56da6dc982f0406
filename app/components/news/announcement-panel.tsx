import { Mail, Send } from "lucide-react";
import { Form, useNavigation } from "react-router";
import type { AnnouncementProgress } from "../../../core/notifications/announcements.service";
import { Notice } from "../ui/notice";

export type AudienceChoice = { value: string; label: string; count: number };

/** What the action answers to the panel's forms. */
export type AnnouncementResult = {
  announce?: {
    notice?: string;
    error?: string;
    /** Asked before sending: to whom, how many, and whether it went before. */
    confirm?: { audience: string; label: string; count: number; sentBefore: string | null };
  };
};

/** How an announcement's audience reads. */
export function audienceLabel(audience: string): string {
  if (audience === "all") return "All members";
  return `${audience[0].toUpperCase()}${audience.slice(1)} members' representatives`;
}

/**
 * A news post sent to the members by e-mail (issue 33, decision 0066), on its edit screen: the
 * mail as it will read, a test to oneself, then the send, confirmed; each sending's progress.
 */
export function AnnouncementPanel(props: {
  title: string;
  preview: { subject: string; body_text: string };
  audiences: AudienceChoice[];
  /** Each sending, newest first, with when it went in the site's time zone. */
  progress: (AnnouncementProgress & { when: string })[];
  perSecond: number;
  result: AnnouncementResult["announce"];
}) {
  const busy = useNavigation().formData?.get("intent");
  const confirm = props.result?.confirm;
  return (
    <section
      id="announce"
      aria-labelledby="announce-title"
      className="mt-8 scroll-mt-24 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="announce-title" className="flex items-center gap-2 font-display text-2xl font-bold text-navy-900">
        <Mail className="h-6 w-6 text-sea-600" aria-hidden="true" />
        Send to the members by e-mail
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Members who turned announcements off in their notification preferences are left out. The e-mails leave at most{" "}
        {props.perSecond} e-mails a second (Settings), each with a one-click unsubscribe.
      </p>
      <div aria-live="polite" className="mt-3 space-y-2">
        {props.result?.notice ? <Notice tone="success">{props.result.notice}</Notice> : null}
        {props.result?.error ? <Notice tone="error">{props.result.error}</Notice> : null}
      </div>

      <details className="mt-4 rounded-lg border border-slate-200 bg-slate-50 p-4">
        <summary className="cursor-pointer font-semibold text-navy-900">Preview the e-mail</summary>
        <p className="mt-3 text-sm text-slate-700">
          <span className="font-semibold">Subject:</span> {props.preview.subject}
        </p>
        <div className="mt-2 whitespace-pre-wrap break-words rounded-md bg-white p-4 text-sm text-slate-800 ring-1 ring-slate-200">
          {props.preview.body_text}
        </div>
        <p className="mt-2 text-xs text-slate-500">
          Sent with the association's logo and footer, as text and HTML; each member is greeted by name.
        </p>
      </details>

      {confirm ? (
        <Form method="post" className="mt-4 rounded-lg bg-amber-50 p-4 ring-1 ring-amber-200">
          <input type="hidden" name="intent" value="announce" />
          <input type="hidden" name="audience" value={confirm.audience} />
          <p className="font-semibold text-slate-900">
            Send “{props.title}” to {confirm.count.toLocaleString("en-GB")} {confirm.count === 1 ? "member" : "members"}{" "}
            ({confirm.label.toLowerCase()}) now?
          </p>
          {confirm.count === 0 ? (
            <p className="mt-1 text-sm text-amber-900">
              Nobody would receive it: no member of this audience has announcements on. Choose another audience.
            </p>
          ) : null}
          {confirm.sentBefore ? (
            <>
              <p className="mt-1 text-sm text-amber-900">This post was sent to the members on {confirm.sentBefore}.</p>
              <label className="mt-2 flex items-center gap-2 text-sm font-semibold text-slate-900">
                <input type="checkbox" name="again" value="1" required className="h-4 w-4 accent-sea-600" />
                Send it again
              </label>
            </>
          ) : null}
          <div className="mt-3 flex flex-wrap gap-3">
            <button type="submit" className="btn-primary" disabled={busy === "announce" || confirm.count === 0}>
              <Send className="h-4 w-4" aria-hidden="true" />
              {busy === "announce" ? "Sending…" : "Yes, send it"}
            </button>
            <a href="#announce" className="btn-outline">
              Cancel
            </a>
          </div>
        </Form>
      ) : (
        <div className="mt-4 flex flex-wrap items-end gap-3">
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="announce-confirm" />
            <div>
              <label htmlFor="announce-audience" className="block text-sm font-semibold text-slate-800">
                To
              </label>
              <select
                id="announce-audience"
                name="audience"
                className="mt-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
              >
                {props.audiences.map((a) => (
                  <option key={a.value} value={a.value}>
                    {a.label} ({a.count.toLocaleString("en-GB")})
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn-primary" disabled={busy === "announce-confirm"}>
              <Send className="h-4 w-4" aria-hidden="true" />
              Send to the members…
            </button>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="announce-test" />
            <button type="submit" className="btn-outline" disabled={busy === "announce-test"}>
              {busy === "announce-test" ? "Sending…" : "Send a test to me"}
            </button>
          </Form>
        </div>
      )}

      {props.progress.length > 0 ? (
        <div className="mt-6 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="mb-2 text-left font-semibold text-navy-900">Sent to the members</caption>
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  When
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  To
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  By
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">
                  Queued
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">
                  Sent
                </th>
                <th scope="col" className="py-2 text-right font-semibold">
                  Failed
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {props.progress.map((p) => (
                <tr key={p.id}>
                  <td className="py-2 pr-4">{p.when}</td>
                  <td className="py-2 pr-4">
                    {audienceLabel(p.audience)} ({p.recipients.toLocaleString("en-GB")})
                  </td>
                  <td className="py-2 pr-4">{p.sent_by ?? "—"}</td>
                  <td className="py-2 pr-4 text-right tabular-nums">{p.pending.toLocaleString("en-GB")}</td>
                  <td className="py-2 pr-4 text-right tabular-nums">{p.sent.toLocaleString("en-GB")}</td>
                  <td className={`py-2 text-right tabular-nums ${p.failed ? "font-semibold text-red-700" : ""}`}>
                    {p.failed.toLocaleString("en-GB")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
