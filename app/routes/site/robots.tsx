import { getRequestContext } from "../../context";
import type { Route } from "./+types/robots";

/** robots.txt: the members and admin areas stay out of search engines. */
export function loader({ context }: Route.LoaderArgs) {
  const { origin } = getRequestContext(context);
  const body = [
    "User-agent: *",
    "Disallow: /dashboard",
    "Disallow: /manager",
    "Disallow: /manage-",
    "Disallow: /api/",
    "Disallow: /login",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
