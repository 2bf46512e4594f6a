/** An image found in a document. Width and height are `null` when the source does not state them. */
export interface IndexImage {
  /** Absolute URL (or the `src` as written when it cannot be resolved). */
  url: string;
  width: number | null;
  height: number | null;
  alt: string;
  /** Character offset in the document text where the image appeared (used to place it when rendering). */
  offset: number;
}

/** Which search mode a document belongs to (ARCHITECTURE.md, `search_mode`). */
export type DocumentCategory = 'web' | 'academic' | 'sec';

/** The format a document was read from. `url` = HTML loaded through `fetchHtml`. */
export type SourceKind = 'html' | 'markdown' | 'txt' | 'pdf' | 'docx' | 'url' | 'text';

/** One structural block produced by a format reader; the chunker works on these. */
export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'image'; image: Omit<IndexImage, 'offset'> };

/** What a format reader extracts from one source, before chunking. */
export interface ExtractedDocument {
  title: string;
  /** Canonical URL stated by the document itself (canonical link, og:url, front matter), if any. */
  canonicalUrl: string | null;
  language: string | null;
  publishedAt: Date | null;
  updatedAt: Date | null;
  /** Category stated by the document (meta/front matter `category`), if any. */
  category: string | null;
  blocks: Block[];
  /** Readable HTML of the main content, stored beside the text. */
  html: string;
}

/** A chunk as stored. Offsets are into {@link IndexedDocument.text}: `text === doc.text.slice(charStart, charEnd)`. */
export interface ChunkRecord {
  id: number;
  docId: string;
  ordinal: number;
  headingPath: string[];
  /** Level (1-6) of the heading the chunk text starts with, or 0 when it starts with body text. */
  headingLevel: number;
  charStart: number;
  charEnd: number;
  text: string;
  tokens: number;
}

/** A document as stored, with its chunks in order. Dates are `null` when the source states none. */
export interface IndexedDocument {
  id: string;
  url: string;
  /** The path or URL the document was ingested from. */
  source: string;
  sourceKind: SourceKind;
  title: string;
  /** Host without `www.`, lower case; `''` for local files that state no URL. */
  domain: string;
  /** Primary language subtag, lower case (`en`, `de`), or `null`. */
  language: string | null;
  category: DocumentCategory;
  publishedAt: Date | null;
  updatedAt: Date | null;
  contentHash: string;
  images: IndexImage[];
  text: string;
  html: string;
  indexedAt: Date;
  chunks: ChunkRecord[];
}
