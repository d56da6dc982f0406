import { useState } from "react";
import { IMAGE_ALT_MAX } from "../../../lib/image-text";

/**
 * An image's text alternative (decision 0041): its alt text, required unless the image only
 * decorates, and the "Decorative" checkbox that says so. Without JavaScript both are sent and the
 * server ignores the text of a decorative image; with it, the text field is disabled while ticked.
 */
export function ImageTextFields({
  id,
  altName,
  decorativeName,
  defaultAlt,
  defaultDecorative,
  error,
  form,
}: {
  /** Prefix of the fields' ids, unique on the page. */
  id: string;
  altName: string;
  decorativeName: string;
  defaultAlt: string;
  defaultDecorative: boolean;
  error?: string;
  /** The id of the form the fields belong to, when they sit outside it. */
  form?: string;
}) {
  const [decorative, setDecorative] = useState(defaultDecorative);
  const altId = `${id}-alt`;
  const hintId = `${altId}-hint`;
  const errorId = `${altId}-error`;
  return (
    <div className="space-y-2">
      <div>
        <label htmlFor={altId} className="field-label">
          Alt text
        </label>
        <input
          id={altId}
          name={altName}
          form={form}
          defaultValue={defaultAlt}
          maxLength={IMAGE_ALT_MAX}
          disabled={decorative}
          aria-required={!decorative}
          aria-invalid={error ? true : undefined}
          aria-describedby={[hintId, error ? errorId : ""].filter(Boolean).join(" ")}
          className="field-input disabled:bg-slate-100"
        />
        <p id={hintId} className="mt-1.5 text-sm text-slate-600">
          What the picture shows, for people who cannot see it, e.g. “Delegates at the opening session”.
        </p>
        {error ? (
          <p id={errorId} className="mt-1.5 text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
      <div className="flex items-center gap-2 text-sm">
        <input
          id={`${id}-decorative`}
          type="checkbox"
          name={decorativeName}
          form={form}
          value="1"
          defaultChecked={defaultDecorative}
          onChange={(event) => setDecorative(event.currentTarget.checked)}
          className="h-4 w-4"
        />
        <label htmlFor={`${id}-decorative`} className="text-slate-800">
          Decorative: it adds nothing to the text (no alt text)
        </label>
      </div>
    </div>
  );
}
