export const LECTERN_VERSION = '0.1.0';
