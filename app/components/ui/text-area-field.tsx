import type { Ref, TextareaHTMLAttributes } from "react";

/** TextField's counterpart for longer text: labelled, with its error wired to aria-invalid and aria-describedby. */
export function TextAreaField({
  id,
  label,
  error,
  inputRef,
  ...textarea
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  id: string;
  label: string;
  error?: string;
  inputRef?: Ref<HTMLTextAreaElement>;
}) {
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <textarea
        ref={inputRef}
        id={id}
        className="field-input min-h-40"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...textarea}
      />
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
