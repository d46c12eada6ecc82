;; The binary pre-filter's inner loop (vectorIndex.ts), in WebAssembly for the CPU's
;; popcount instruction: about 7× faster than the same loop in JavaScript.
;; Compiled by `npm run build:wasm` into hammingWasm.ts.
(module
  (memory (export "memory") 1)
  ;; distances(codes, query, n, words, dist, hist): for each of the n codes of `words`
  ;; 64-bit words stored one after another from `codes`, the Hamming distance to the code
  ;; at `query` goes to dist[i] (u16), and hist[d] (u32) counts the codes at distance d.
  (func (export "distances")
    (param $codes i32) (param $query i32) (param $n i32) (param $words i32)
    (param $dist i32) (param $hist i32)
    (local $i i32) (local $w i32) (local $d i64) (local $p i32) (local $h i32)
    (local.set $p (local.get $codes))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $d (i64.const 0))
        (local.set $w (i32.const 0))
        (block $last_word
          (loop $word
            (br_if $last_word (i32.ge_u (local.get $w) (local.get $words)))
            (local.set $d
              (i64.add (local.get $d)
                (i64.popcnt
                  (i64.xor
                    (i64.load (i32.add (local.get $p) (i32.shl (local.get $w) (i32.const 3))))
                    (i64.load (i32.add (local.get $query) (i32.shl (local.get $w) (i32.const 3))))))))
            (local.set $w (i32.add (local.get $w) (i32.const 1)))
            (br $word)))
        (i32.store16
          (i32.add (local.get $dist) (i32.shl (local.get $i) (i32.const 1)))
          (i32.wrap_i64 (local.get $d)))
        (local.set $h
          (i32.add (local.get $hist) (i32.shl (i32.wrap_i64 (local.get $d)) (i32.const 2))))
        (i32.store (local.get $h) (i32.add (i32.load (local.get $h)) (i32.const 1)))
        (local.set $p (i32.add (local.get $p) (i32.shl (local.get $words) (i32.const 3))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))))
