import type { CategoryTree } from "../../../core/library/library.schema";
import type { FormResult } from "../ui/form-result";

/** What the library admin's actions answer a form ("cat-12", "add-3", "paper-7"). */
export type LibraryResult = FormResult;

/** A category in the tree's order (depth first), with its depth and its parent. */
export type FlatCategory = { category: CategoryTree; depth: number; parent: CategoryTree | null };

export function flattenTree(roots: CategoryTree[]): FlatCategory[] {
  const out: FlatCategory[] = [];
  const walk = (list: CategoryTree[], depth: number, parent: CategoryTree | null) => {
    for (const category of list) {
      out.push({ category, depth, parent });
      walk(category.children, depth + 1, category);
    }
  };
  walk(roots, 0, null);
  return out;
}

/** The categories a category may be moved under: any but itself and its own sub-categories. */
export function validParents(flat: FlatCategory[], id: number): FlatCategory[] {
  const excluded = new Set<number>();
  const mark = (c: CategoryTree) => {
    excluded.add(c.id);
    for (const child of c.children) mark(child);
  };
  const self = flat.find((f) => f.category.id === id);
  if (self) mark(self.category);
  return flat.filter((f) => !excluded.has(f.category.id));
}

/** A category's name indented by its depth, for a select's options. */
export function indented(f: FlatCategory): string {
  return `${"\u2003".repeat(f.depth)}${f.depth > 0 ? "↳ " : ""}${f.category.name}`;
}

/** How a public setting reads: "Public", "Members only", and whether it is inherited. */
export function accessLabel(isPublic: boolean): string {
  return isPublic ? "Public" : "Members only";
}

/** The string fields of a posted form, to give back what was typed on a refusal. */
export function typedValues(form: Record<string, FormDataEntryValue>): Record<string, string> {
  return Object.fromEntries(Object.entries(form).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])));
}
