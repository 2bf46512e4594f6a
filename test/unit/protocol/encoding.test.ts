import { describe, expect, it } from 'vitest';
import {
  MAX_TOKENS_PER_REQUEST,
  MAX_TOKENS_PER_TEXT,
  countTokens,
  decodeBinary,
  decodeInt8,
  encodeBinary,
  encodeInt8,
  unpackBits,
  withinTokenLimit,
} from '../../../src/protocol/index.js';

describe('int8 embedding encoding', () => {
  it('quantizes round(x*127) clamped to [-127, 127], one byte per dimension', () => {
    const v = new Float32Array([1, -1, 0, 0.5, -0.5, 2, -3, 0.004, Number.NaN]);
    const b64 = encodeInt8(v);
    expect(Buffer.from(b64, 'base64')).toHaveLength(v.length);
    expect(Array.from(decodeInt8(b64))).toEqual([127, -127, 0, 64, -63, 127, -127, 1, 0]);
  });

  it('round-trips a random vector within one quantization step', () => {
    const v = Float32Array.from({ length: 1024 }, (_, i) => Math.sin(i * 1.7));
    const back = decodeInt8(encodeInt8(v));
    expect(back).toBeInstanceOf(Int8Array);
    expect(back).toHaveLength(1024);
    back.forEach((q, i) => expect(Math.abs(q / 127 - v[i]!)).toBeLessThanOrEqual(0.5 / 127 + 1e-6));
  });
});

describe('binary embedding encoding', () => {
  it('packs bit = x > 0 most significant bit first', () => {
    const v = new Float32Array([1, -1, 1, 0, 0, 0, 0, 0.1, 0.3]);
    const packed = decodeBinary(encodeBinary(v));
    expect(Array.from(packed)).toEqual([0b10100001, 0b10000000]);
    expect(Array.from(unpackBits(packed, 9))).toEqual([1, 0, 1, 0, 0, 0, 0, 1, 1]);
  });

  it('round-trips the sign pattern of a 2560-dimension vector', () => {
    const v = Float32Array.from({ length: 2560 }, (_, i) => Math.cos(i * 0.37));
    const packed = decodeBinary(encodeBinary(v));
    expect(packed).toHaveLength(320);
    const bits = unpackBits(packed, 2560);
    bits.forEach((b, i) => expect(b).toBe(v[i]! > 0 ? 1 : 0));
  });

  it('refuses to unpack more bits than the bytes hold', () => {
    expect(() => unpackBits(new Uint8Array(1), 9)).toThrow(RangeError);
  });
});

describe('tokens', () => {
  it('counts with o200k_base', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
    expect(countTokens('word '.repeat(1000))).toBe(1001);
  });

  it('exposes the spec limits', () => {
    expect(MAX_TOKENS_PER_TEXT).toBe(32_768);
    expect(MAX_TOKENS_PER_REQUEST).toBe(120_000);
  });

  it('skips tokenizing when the byte length proves the limit, and is exact otherwise', () => {
    // The byte length is returned as the bound: "hello world" is 11 bytes, 2 tokens.
    expect(withinTokenLimit('hello world', 100)).toBe(11);
    expect(withinTokenLimit('hello world', 100, true)).toBe(2);
    expect(withinTokenLimit('word '.repeat(10), 5)).toBe(false);
    expect(withinTokenLimit('word '.repeat(10), 11)).toBe(11);
  });
});
