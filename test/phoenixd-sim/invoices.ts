import { createECDH, createHash, randomBytes } from 'node:crypto';
import bolt11 from 'bolt11';

/** Regtest, like a phoenixd started with `--chain regtest`. */
export const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, validWitnessVersions: [0, 1] };

/** A fixed test key, so every simulator has the same node id and signs the same way. */
const NODE_PRIVATE_KEY = createHash('sha256').update('phoenixd-sim node key').digest('hex');

export const SIM_NODE_ID = (() => {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(Buffer.from(NODE_PRIVATE_KEY, 'hex'));
  return ecdh.getPublicKey('hex', 'compressed');
})();

export const randomHex32 = () => randomBytes(32).toString('hex');
export const sha256Hex = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');

export type SignedInvoice = { serialized: string; paymentHash: string; preimage: string };

/** A real BOLT11 invoice, signed with the simulator's node key. */
export function signInvoice(input: {
  amountSat: number | null;
  description: string;
  expirySeconds: number;
  createdAtMs: number;
}): SignedInvoice {
  const preimage = randomHex32();
  const paymentHash = sha256Hex(preimage);
  const unsigned = bolt11.encode({
    network: REGTEST,
    ...(input.amountSat !== null && { satoshis: input.amountSat }),
    timestamp: Math.floor(input.createdAtMs / 1000),
    tags: [
      { tagName: 'payment_hash', data: paymentHash },
      { tagName: 'payment_secret', data: randomHex32() },
      { tagName: 'description', data: input.description },
      { tagName: 'expire_time', data: input.expirySeconds },
    ],
  });
  const signed = bolt11.sign(unsigned, NODE_PRIVATE_KEY);
  if (!signed.paymentRequest) throw new Error('bolt11 did not produce an invoice');
  return { serialized: signed.paymentRequest, paymentHash, preimage };
}

export type DecodedInvoice = { amountSat: number | null; paymentHash: string; description: string };

/** null for anything that is not a valid regtest BOLT11 invoice. */
export function decodeInvoice(serialized: string): DecodedInvoice | null {
  try {
    const decoded = bolt11.decode(serialized, REGTEST);
    const paymentHash = decoded.tagsObject.payment_hash;
    if (typeof paymentHash !== 'string') return null;
    return {
      amountSat: decoded.satoshis ?? null,
      paymentHash,
      description: decoded.tagsObject.description ?? '',
    };
  } catch {
    return null;
  }
}
