import type { MembersRepository } from "./members.repository";

export type MemberCompany = {
  id: number;
  name: string;
  country: string;
  website: string | null;
  logo: string | null;
  joined_year: number | null;
};

/** The public membership list (SPEC §1 'See the membership list'). */
export function createMembersService(deps: { repository: MembersRepository }) {
  return {
    async list(
      filter: { search?: string; country?: string } = {},
    ): Promise<{ members: MemberCompany[]; countries: string[] }> {
      const search = filter.search?.trim().slice(0, 100) || undefined;
      const country = filter.country?.trim().slice(0, 100) || undefined;
      const [members, countries] = await Promise.all([
        deps.repository.list({ search, country }),
        deps.repository.countries(),
      ]);
      return {
        members: members.map((m) => ({
          ...m,
          website: m.website && /^https?:\/\//.test(m.website) ? m.website : null,
        })),
        countries,
      };
    },
    async count(): Promise<number> {
      return deps.repository.count();
    },
    /** How many member companies, from how many countries (the home page's figures). */
    async summary(): Promise<{ companies: number; countries: number }> {
      const [companies, countries] = await Promise.all([deps.repository.count(), deps.repository.countries()]);
      return { companies, countries: countries.length };
    },
  };
}
export type MembersService = ReturnType<typeof createMembersService>;
