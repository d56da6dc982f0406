import type { Meeting, MeetingImage } from "../../../core/meetings/meetings.schema";
import { ConfirmDelete } from "../ui/confirm-delete";
import { ImageTextFields } from "../ui/image-text-fields";
import { errorOf, RowError, useInlineForm } from "./inline-form";

/**
 * A meeting's pictures, each with its alt text (or "decorative") saved by a small form of its own,
 * and its delete button (decision 0041). A picture not described yet says so.
 */
export function PicturesEditor({ meeting, action }: { meeting: Meeting; action: string }) {
  return (
    <section
      aria-labelledby="pictures-list-title"
      className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="pictures-list-title" tabIndex={-1} className="font-display text-2xl font-bold text-navy-900">
        Pictures of this meeting
      </h2>
      <p className="mt-1 text-sm text-slate-600">The first one is the meeting's main picture.</p>
      <ul className="mt-4 grid grid-cols-[minmax(0,1fr)] gap-4 sm:grid-cols-2">
        {meeting.images.map((image, i) => (
          <PictureCard key={image.id} image={image} index={i} count={meeting.images.length} action={action} />
        ))}
      </ul>
    </section>
  );
}

function PictureCard({
  image,
  index,
  count,
  action,
}: {
  image: MeetingImage;
  index: number;
  count: number;
  action: string;
}) {
  const row = `image-${image.id}`;
  const { fetcher, result, busy, form } = useInlineForm(row);
  const undescribed = !image.alt && !image.decorative;
  const name = `picture ${index + 1} of ${count}`;
  return (
    <li id={row} className="overflow-hidden rounded-lg ring-1 ring-slate-200">
      <div className="relative bg-navy-100">
        <img
          src={image.url}
          alt={image.alt ? `${name}: ${image.alt}` : name}
          width={image.width ?? 320}
          height={image.height ?? 200}
          className="aspect-[4/3] h-auto w-full object-cover"
        />
        <div className="absolute top-1.5 right-1.5 rounded-md bg-white/95 shadow">
          <ConfirmDelete
            label={`Delete picture ${index + 1}`}
            title="Delete this picture?"
            description="The picture will be removed from the meeting's page."
            fields={{ intent: "delete-image", id: image.id }}
            focusAfter="#pictures-list-title"
          />
        </div>
        {index === 0 ? (
          <span className="absolute bottom-1.5 left-1.5 rounded bg-navy-900/85 px-1.5 py-0.5 text-xs font-semibold text-white">
            Main
          </span>
        ) : null}
      </div>
      <fetcher.Form
        ref={form}
        method="post"
        action={action}
        aria-label={`Alt text of picture ${index + 1}`}
        className="space-y-3 p-3"
      >
        <input type="hidden" name="intent" value="describe-image" />
        <input type="hidden" name="id" value={image.id} />
        <RowError result={result} />
        {undescribed ? <p className="text-sm font-semibold text-amber-800">This picture needs alt text.</p> : null}
        <ImageTextFields
          id={row}
          altName="alt"
          decorativeName="decorative"
          defaultAlt={result?.errors ? (result.values?.alt ?? "") : image.alt}
          defaultDecorative={image.decorative}
          error={errorOf(result, "alt")}
        />
        <div className="flex flex-wrap items-center justify-end gap-3">
          <p role="status" className="text-sm text-sea-700">
            {result?.done ? result.message : ""}
          </p>
          <button type="submit" className="btn-outline py-1.5" disabled={busy}>
            {busy ? "Saving…" : "Save alt text"}
          </button>
        </div>
      </fetcher.Form>
    </li>
  );
}
