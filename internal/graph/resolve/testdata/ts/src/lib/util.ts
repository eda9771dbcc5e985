export function load(path: string): string {
  return parse(path);
}

export function parse(text: string): string {
  return text.trim();
}

export default function format(s: string): string {
  return s;
}
