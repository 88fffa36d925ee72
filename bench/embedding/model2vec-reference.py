#!/usr/bin/env python3
"""Reference vector for the Model2Vec backend, computed independently of the TypeScript code.

Reads model.safetensors by hand (8-byte little-endian header length, JSON header, raw little-endian data) and
tokenizes with its own BERT basic tokenizer + WordPiece over tokenizer.json's vocabulary (the same rules as the
tokenizer's BertNormalizer / BertPreTokenizer / WordPiece), then applies model2vec's rule: no special tokens,
[UNK] dropped, at most 512 tokens, mean of the token rows, L2-normalised when config.json says "normalize".
Pure python3 standard library (no numpy, no tokenizers package: PyPI is unreachable here).

    python3 bench/embedding/model2vec-reference.py [MODEL_DIR] [SENTENCE]

MODEL_DIR defaults to ../shared/models/potion-base-2M beside the repository. The printed ids and vector are
hard-coded in libs/embedding/src/model2vec/model2vec.backend.spec.ts.
"""
import json
import math
import os
import struct
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIR = os.path.normpath(os.path.join(HERE, '..', '..', '..', 'shared', 'models', 'potion-base-2M'))
SENTENCE = "Model2Vec's café embeddings \u2603 retrieve documents quickly."
MAX_TOKENS = 512


def read_tensor(path, name):
    with open(path, 'rb') as f:
        (header_len,) = struct.unpack('<Q', f.read(8))
        header = json.loads(f.read(header_len))
        data_start = 8 + header_len
        t = header[name]
        begin, end = t['data_offsets']
        f.seek(data_start + begin)
        raw = f.read(end - begin)
    rows, dim = t['shape']
    if t['dtype'] == 'F32':
        values = struct.unpack('<%df' % (rows * dim), raw)
    elif t['dtype'] == 'F16':
        values = struct.unpack('<%de' % (rows * dim), raw)
    elif t['dtype'] == 'I8':
        values = struct.unpack('<%db' % (rows * dim), raw)
    else:
        raise SystemExit('unsupported dtype %s' % t['dtype'])
    return rows, dim, values


def is_punct(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith('P')


def is_cjk(cp):
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2B73F
            or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def basic_tokens(text):
    out = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or (unicodedata.category(ch).startswith('C') and ch not in '\t\n\r'):
            continue
        if ch in ' \t\n\r' or unicodedata.category(ch) == 'Zs':
            out.append(' ')
        elif is_cjk(cp):
            out.append(' %s ' % ch)
        else:
            out.append(ch)
    text = ''.join(out).lower()
    text = ''.join(c for c in unicodedata.normalize('NFD', text) if unicodedata.category(c) != 'Mn')
    words = []
    for word in text.split():
        cur = ''
        for ch in word:
            if is_punct(ch):
                if cur:
                    words.append(cur)
                words.append(ch)
                cur = ''
            else:
                cur += ch
        if cur:
            words.append(cur)
    return words


def wordpiece(word, vocab, unk):
    if len(word) > 100:
        return [unk]
    pieces, start = [], 0
    while start < len(word):
        end, found = len(word), None
        while start < end:
            piece = word[start:end] if start == 0 else '##' + word[start:end]
            if piece in vocab:
                found = piece
                break
            end -= 1
        if found is None:
            return [unk]
        pieces.append(found)
        start = end
    return pieces


def main():
    model_dir = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_DIR
    sentence = sys.argv[2] if len(sys.argv) > 2 else SENTENCE
    with open(os.path.join(model_dir, 'tokenizer.json'), encoding='utf-8') as f:
        tok = json.load(f)
    with open(os.path.join(model_dir, 'config.json'), encoding='utf-8') as f:
        config = json.load(f)
    vocab = tok['model']['vocab']
    unk = tok['model']['unk_token']
    tokens = [p for w in basic_tokens(sentence) for p in wordpiece(w, vocab, unk)]
    ids = [vocab[t] for t in tokens]
    kept = [i for i in ids if i != vocab[unk]][:MAX_TOKENS]
    rows, dim, values = read_tensor(os.path.join(model_dir, 'model.safetensors'), 'embeddings')
    acc = [0.0] * dim
    for i in kept:
        for d in range(dim):
            acc[d] += values[i * dim + d]
    mean = [a / len(kept) for a in acc]
    if config.get('normalize', False):
        norm = max(math.sqrt(sum(x * x for x in mean)), 1e-12)
        mean = [x / norm for x in mean]
    print('sentence:', json.dumps(sentence))
    print('tokens:', tokens)
    print('ids (with [UNK]):', ids)
    print('ids used:', kept)
    print('matrix:', rows, 'x', dim)
    print('vector:', json.dumps([float('%.9g' % x) for x in mean]))


if __name__ == '__main__':
    main()
