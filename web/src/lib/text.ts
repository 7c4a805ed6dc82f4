/** Lower case, no accents, one space between words: "  Côte   d'Ivoire " → "cote d'ivoire". */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
