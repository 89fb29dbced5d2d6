/**
 * The part of pdfmake 0.3's server API the reports use (the package ships no types): one shared instance whose
 * fonts and access policies are set once, and `createPdf(docDefinition).getBuffer()`.
 */
declare module 'pdfmake' {
  interface FontFiles {
    normal: string;
    bold: string;
    italics: string;
    bolditalics: string;
  }
  interface OutputDocument {
    getBuffer(): Promise<Buffer>;
  }
  interface PdfMake {
    setFonts(fonts: Record<string, FontFiles>): void;
    /** Whether a URL a document names may be fetched (images, fonts). */
    setUrlAccessPolicy(allow: (url: string) => boolean): void;
    /** Whether a local file a document names may be read. */
    setLocalAccessPolicy(allow: (path: string) => boolean): void;
    createPdf(docDefinition: object, options?: object): OutputDocument;
  }
  const pdfmake: PdfMake;
  export default pdfmake;
}
