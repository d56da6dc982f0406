import { ArrowRight, BookOpen } from "lucide-react";
import { Link } from "react-router";
import type { Category } from "../../../core/library/library.schema";

/** The library's categories as cards: picture, title and its line of description. */
export function CategoryCards({
  categories,
  home,
  compact = false,
}: {
  categories: Pick<Category, "id" | "slug" | "name" | "title" | "title_description" | "image">[];
  /** Where category pages live: /dashboard or /library. */
  home: string;
  /** Smaller cards without pictures, for sub-categories inside a page. */
  compact?: boolean;
}) {
  if (compact) {
    return (
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {categories.map((category) => (
          <li key={category.id}>
            <Link
              to={`${home}/${category.slug}`}
              className="group flex h-full items-center justify-between gap-3 rounded-lg bg-white px-4 py-3 ring-1 ring-slate-200 transition hover:ring-navy-700"
            >
              <span>
                <span className="block font-semibold text-navy-900 group-hover:underline">
                  {category.title || category.name}
                </span>
                {category.title_description ? (
                  <span className="mt-0.5 block text-sm text-slate-600">{category.title_description}</span>
                ) : null}
              </span>
              <ArrowRight className="h-4 w-4 shrink-0 text-sea-600" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {categories.map((category) => (
        <li key={category.id}>
          <Link
            to={`${home}/${category.slug}`}
            className="group flex h-full flex-col overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200 transition hover:shadow-md hover:ring-navy-700"
          >
            {category.image ? (
              <img
                src={category.image}
                alt=""
                loading="lazy"
                className="aspect-[3/2] w-full bg-navy-100 object-cover"
              />
            ) : (
              <div
                aria-hidden="true"
                className="flex aspect-[3/2] w-full items-center justify-center bg-gradient-to-br from-navy-900 via-navy-800 to-sea-700"
              >
                <BookOpen className="h-10 w-10 text-white/70" />
              </div>
            )}
            <span className="flex flex-1 flex-col p-5">
              <span className="text-lg font-semibold text-navy-900 group-hover:underline">
                {category.title || category.name}
              </span>
              {category.title_description ? (
                <span className="mt-1 text-sm text-slate-600">{category.title_description}</span>
              ) : null}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
