// The `stopword` package (3.x) ships no type declarations; this is the part the lib uses.
declare module 'stopword' {
  export const eng: string[];
}
