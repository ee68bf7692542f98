// Types for edgegraph/tokenizer: exact BPE counts for OpenAI encodings,
// loaded on demand.

export type EncodingName = 'o200k_base' | 'cl100k_base';

export class Encoding {
  readonly name: EncodingName;
  encode(text: string): number[];
  /** The number of tokens of `text`; special-token look-alikes count as plain text. */
  countText(text: string): number;
  decode(ids: number[]): string;
}

/** Load an encoding (its table is a separate ~1-2 MB module); later calls share it. */
export function loadEncoding(name: EncodingName): Promise<Encoding>;
/** Build an encoding from a table module's default export (custom loading). */
export function encodingFromTable(table: { name: string; pattern: string; count: number; data: string }): Encoding;
