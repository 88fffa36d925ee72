#!/usr/bin/env node
// SPDX-License-Identifier: AGPL-3.0-or-later
// The bin's former path, kept for MCP client configurations that name it: the bin is lectern.cjs (a CommonJS script,
// which starts ~4 ms sooner than an ES module entry).
import './lectern.cjs';
