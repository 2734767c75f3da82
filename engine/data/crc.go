package data

import (
	"hash/crc32"
	"runtime"
	"sync"
)

// checksum is crc32.Checksum(b, castagnoli), computed on all cores for a large b: the
// pieces' checksums are combined (crc32Combine) into the whole's.
func checksum(b []byte) uint32 {
	const minPiece = 16 << 20
	k := min(runtime.GOMAXPROCS(0), len(b)/minPiece)
	if k < 2 {
		return crc32.Checksum(b, castagnoli)
	}
	sums := make([]uint32, k)
	var wg sync.WaitGroup
	for i := range k {
		wg.Go(func() { sums[i] = crc32.Checksum(b[i*len(b)/k:(i+1)*len(b)/k], castagnoli) })
	}
	wg.Wait()
	c := sums[0]
	for i := 1; i < k; i++ {
		c = crc32Combine(crc32.Castagnoli, c, sums[i], int64((i+1)*len(b)/k-i*len(b)/k))
	}
	return c
}

// crc32Combine returns the checksum of A‖B from crcA and crcB, the checksums of A and
// of B, and B's length, for the reflected polynomial poly: crcA's register is carried
// over lenB zero bytes (by repeated squaring of the one-zero-bit operator, as zlib's
// crc32_combine does) and crcB added.
func crc32Combine(poly, crcA, crcB uint32, lenB int64) uint32 {
	if lenB <= 0 {
		return crcA
	}
	var even, odd [32]uint32 // operators for 2ⁿ zero bits
	odd[0] = poly            // one zero bit
	row := uint32(1)
	for n := 1; n < 32; n++ {
		odd[n] = row
		row <<= 1
	}
	gf2Square(&even, &odd) // two zero bits
	gf2Square(&odd, &even) // four
	for {
		gf2Square(&even, &odd) // a zero byte, then 4, 16, …
		if lenB&1 != 0 {
			crcA = gf2Times(&even, crcA)
		}
		if lenB >>= 1; lenB == 0 {
			break
		}
		gf2Square(&odd, &even)
		if lenB&1 != 0 {
			crcA = gf2Times(&odd, crcA)
		}
		if lenB >>= 1; lenB == 0 {
			break
		}
	}
	return crcA ^ crcB
}

// gf2Times is the 32×32 matrix mat over GF(2) (its columns) times vec.
func gf2Times(mat *[32]uint32, vec uint32) uint32 {
	var sum uint32
	for i := 0; vec != 0; i, vec = i+1, vec>>1 {
		if vec&1 != 0 {
			sum ^= mat[i]
		}
	}
	return sum
}

// gf2Square sets square to mat·mat.
func gf2Square(square, mat *[32]uint32) {
	for n := range 32 {
		square[n] = gf2Times(mat, mat[n])
	}
}
