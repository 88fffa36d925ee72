declare module 'turndown-plugin-gfm';
