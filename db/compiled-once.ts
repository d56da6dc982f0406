import type { Compilable, CompiledQuery } from "kysely";

/**
 * A query built and compiled by Kysely once, then run with new values: for the few queries every
 * request runs (the session lookup), where building and compiling (immutable nodes, a visitor per
 * node) cost more CPU than SQLite's own work. `build` gets one placeholder per value and must hand
 * each to the query builder as a value, never into SQL text; values it writes itself stay as they are.
 */
export function compiledOnce<O>(
  build: (...values: string[]) => Compilable<O>,
  arity: number,
): (...values: string[]) => CompiledQuery<O> {
  let compiled: CompiledQuery<O> | null = null;
  let slots: (number | null)[] = [];
  return (...values) => {
    if (values.length !== arity) throw new Error(`the query takes ${arity} values, not ${values.length}`);
    if (!compiled) {
      const placeholders = Array.from({ length: arity }, (_, i) => `\u0000compiled-once-${i}\u0000`);
      compiled = build(...placeholders).compile();
      slots = compiled.parameters.map((parameter) => {
        const at = placeholders.indexOf(parameter as string);
        return at < 0 ? null : at;
      });
      if (slots.filter((slot) => slot !== null).length !== arity) {
        throw new Error("every value must reach the query exactly once, as a parameter");
      }
    }
    const template = compiled;
    return {
      ...template,
      parameters: template.parameters.map((parameter, i) => {
        const slot = slots[i] ?? null;
        return slot === null ? parameter : values[slot];
      }),
    };
  };
}
