// SPDX-License-Identifier: AGPL-3.0-or-later
declare module 'turndown-plugin-gfm';
