import { ExternalLink } from "lucide-react";
import { type Ref, useRef } from "react";
import { type Sponsor, sponsorInputSchema } from "../../../core/meetings/meetings.schema";
import { IMAGE_ACCEPT, IMAGE_TYPES_TEXT } from "../../../lib/uploads";
import { lengthLimit } from "../../lib/forms";
import { ConfirmDelete } from "../ui/confirm-delete";
import { TextField } from "../ui/text-field";
import {
  AddActions,
  EditActions,
  EditLink,
  errorOf,
  type InlineResult,
  RowError,
  useInlineEdit,
  useInlineForm,
} from "./inline-form";

/** A file input styled as the admin's other uploads. */
export const FILE_INPUT =
  "block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-navy-900 file:px-3 file:py-2 file:text-white";

function SponsorFields({
  prefix,
  shown,
  result,
  nameRef,
  hasLogo,
}: {
  prefix: string;
  shown: { name: string; link: string };
  result: InlineResult | undefined;
  nameRef?: Ref<HTMLInputElement>;
  hasLogo: boolean;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        inputRef={nameRef}
        id={`${prefix}-name`}
        name="name"
        label="Name"
        required
        defaultValue={shown.name}
        error={errorOf(result, "name")}
        {...lengthLimit(sponsorInputSchema.shape.name)}
      />
      <TextField
        id={`${prefix}-link`}
        name="link"
        type="url"
        label="Link"
        placeholder="https://"
        defaultValue={shown.link}
        error={errorOf(result, "link")}
        {...lengthLimit(sponsorInputSchema.shape.link)}
      />
      <div className="sm:col-span-2">
        <TextField
          id={`${prefix}-image`}
          name="image"
          type="file"
          accept={IMAGE_ACCEPT}
          label="Logo"
          hint={`${IMAGE_TYPES_TEXT}.${hasLogo ? " A new file replaces the current logo." : ""}`}
          error={errorOf(result, "image")}
          className={FILE_INPUT}
        />
      </div>
    </div>
  );
}

const shownOf = (sponsor: Sponsor | null, result: InlineResult | undefined) =>
  result?.errors && result.values
    ? { name: result.values.name ?? "", link: result.values.link ?? "" }
    : { name: sponsor?.name ?? "", link: sponsor?.link ?? "" };

function SponsorCard({
  sponsor,
  action,
  initiallyEditing,
}: {
  sponsor: Sponsor;
  action: string;
  initiallyEditing: boolean;
}) {
  const row = `sponsor-${sponsor.id}`;
  const { fetcher, result, busy, form, editing, setEditing, editLink } = useInlineEdit(row, initiallyEditing);
  if (editing) {
    return (
      <li id={row} className="rounded-lg bg-navy-50/60 p-4 ring-1 ring-slate-200">
        <fetcher.Form
          ref={form}
          method="post"
          action={action}
          encType="multipart/form-data"
          aria-label={`Edit the sponsor ${sponsor.name}`}
        >
          <input type="hidden" name="intent" value="update-sponsor" />
          <input type="hidden" name="id" value={sponsor.id} />
          <RowError result={result} />
          <SponsorFields
            prefix={row}
            shown={shownOf(sponsor, result)}
            result={result}
            hasLogo={Boolean(sponsor.image)}
          />
          <EditActions action={action} busy={busy} saveLabel="Save sponsor" onCancel={() => setEditing(false)} />
        </fetcher.Form>
      </li>
    );
  }
  return (
    <li id={row} className="flex items-center gap-3 rounded-lg p-3 ring-1 ring-slate-200 sm:gap-4">
      <div className="flex h-14 w-20 shrink-0 items-center justify-center rounded bg-white ring-1 ring-slate-100 sm:h-16 sm:w-28">
        {sponsor.image ? (
          <img
            src={sponsor.image}
            alt={`${sponsor.name} logo`}
            width={112}
            height={64}
            className="max-h-12 w-auto max-w-16 object-contain sm:max-h-14 sm:max-w-24"
          />
        ) : (
          <span className="text-xs text-slate-500">No logo</span>
        )}
      </div>
      <div className="min-w-0 flex-1">
        <p className="truncate font-semibold text-navy-900">{sponsor.name}</p>
        {sponsor.link ? (
          <a
            href={sponsor.link}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex max-w-full items-center gap-1 text-sm text-sea-700 hover:underline"
          >
            <span className="truncate">{sponsor.link.replace(/^https?:\/\//, "")}</span>
            <ExternalLink className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : (
          <p className="text-sm text-slate-500">No link</p>
        )}
      </div>
      <div className="flex shrink-0 gap-1">
        <EditLink row={row} linkRef={editLink} onOpen={() => setEditing(true)}>
          <span className="max-sm:sr-only">Edit</span>
          <span className="sr-only"> the sponsor {sponsor.name}</span>
        </EditLink>
        <ConfirmDelete
          label={`Delete the sponsor ${sponsor.name}`}
          title="Delete this sponsor?"
          description={`${sponsor.name} and its logo will be removed from the meeting.`}
          fields={{ intent: "delete-sponsor", id: sponsor.id }}
          focusAfter="#sponsors-title"
        />
      </div>
    </li>
  );
}

function AddSponsor({ action }: { action: string }) {
  const name = useRef<HTMLInputElement>(null);
  const { fetcher, result, busy, form } = useInlineForm("new-sponsor", () => {
    form.current?.reset();
    name.current?.focus();
  });
  return (
    <fetcher.Form
      ref={form}
      method="post"
      action={action}
      encType="multipart/form-data"
      aria-labelledby="add-sponsor-title"
      className="border-t border-slate-200 p-4 sm:p-6"
    >
      <h3 id="add-sponsor-title" className="mb-4 text-lg font-semibold text-navy-900">
        Add a sponsor
      </h3>
      <input type="hidden" name="intent" value="add-sponsor" />
      <RowError result={result} />
      <SponsorFields
        prefix="new-sponsor"
        shown={shownOf(null, result)}
        result={result}
        nameRef={name}
        hasLogo={false}
      />
      <AddActions result={result} busy={busy} label="Add sponsor" />
    </fetcher.Form>
  );
}

/** The meeting's sponsors, edited inline: name, link and logo; each editable and deletable. */
export function SponsorsEditor({
  sponsors,
  action,
  editing,
}: {
  sponsors: Sponsor[];
  action: string;
  editing: string | null;
}) {
  return (
    <section aria-labelledby="sponsors-title" className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      <div className="p-4 sm:p-6">
        <h2 id="sponsors-title" tabIndex={-1} className="font-display text-2xl font-bold text-navy-900">
          Sponsors
        </h2>
        <p className="mt-1 text-sm text-slate-600">Shown on the meeting's page in this order, logos linking out.</p>
        {sponsors.length === 0 ? (
          <p className="mt-4 rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-slate-600">
            No sponsors yet.
          </p>
        ) : (
          <ul className="mt-4 grid grid-cols-[minmax(0,1fr)] gap-3">
            {sponsors.map((sponsor) => (
              <SponsorCard
                key={sponsor.id}
                sponsor={sponsor}
                action={action}
                initiallyEditing={editing === `sponsor-${sponsor.id}`}
              />
            ))}
          </ul>
        )}
      </div>
      <AddSponsor action={action} />
    </section>
  );
}
