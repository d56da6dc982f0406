import type { SelectHTMLAttributes } from "react";

/** A select's choices as [value, label] pairs. */
export type Options = ReadonlyArray<readonly [value: string | number, label: string]>;

/** A SelectField's options: each value with its label, in the values' order. */
export const optionsOf = <T extends string>(values: readonly T[], labels: Readonly<Record<T, string>>) =>
  values.map((value) => [value, labels[value]] as const);

/** A labelled select with its options as [value, label] pairs, and an error wired like TextField's. */
export function SelectField({
  id,
  label,
  options,
  error,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & {
  id: string;
  label: string;
  options: Options;
  error?: string;
}) {
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select
        id={id}
        className="field-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...select}
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
