// Package ingest reads a landscape — Seeds, Shoots, CloudProfiles, NamespacedCloudProfiles, Projects,
// region-config ConfigMaps and, for capacity planning, ManagedSeedSets — from files or from a garden cluster into
// model.Objects.
package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/go-json-experiment/json/jsontext"
	yaml3 "go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/model"
)

// MaxFileSize bounds one landscape file; larger files are refused before they are read. A generated landscape of
// 75,000 shoots and 1,000 seeds is about 70 MB, several times the largest garden's objects.
const MaxFileSize = 128 << 20

// Landscape is what a load produced: the objects and the warnings about what was skipped.
type Landscape struct {
	Objects  model.Objects
	Warnings []string
	// Bytes is how many bytes of files (and standard input) the objects were read from.
	Bytes int64

	// where is where each object was read, by kind, namespace and name.
	where map[string]place
	// documents counts the documents read that hold an object or a List, even of no items: not empty ones.
	documents int
	// refused is why parts of the input were refused, in the input's order (refuse).
	refused []error
	// duplicates is the refusal of the objects of a document read before in another, by the two documents.
	duplicates map[[2]*source]*duplicateObjects
	// skipped counts the objects of kinds seedplan does not read; firstSkipped names the first of them.
	skipped      int
	firstSkipped string
}

// LoadPaths reads every .yaml, .yml and .json file under the given files and directories (directories
// recursively, in lexical order), and standard input for "-", which may be given once. Any malformed object fails
// the whole load: nothing is returned from a landscape that did not load completely, and the error is every
// object, document and file refused, in order (up to maxRefused), each on its own line.
func LoadPaths(paths []string) (*Landscape, error) {
	if err := givenOnce(paths); err != nil {
		return nil, err
	}
	l, small := &Landscape{}, smallFileArenas()
	for _, root := range paths {
		if err := l.loadPath(root, small); err != nil {
			return nil, err
		}
	}
	if err := l.refusal(); err != nil {
		return nil, err
	}
	if l.documents == 0 {
		return nil, noObjects(paths)
	}
	if err := l.readSomething(paths); err != nil {
		return nil, err
	}
	l.warnIfIncomplete()
	return l, nil
}

// loadPath adds what one of LoadPaths' paths holds: standard input, a file or a directory. Its error is the load's
// when it must stop (refuse).
func (l *Landscape) loadPath(root string, small *sync.Pool) error {
	if root == "-" {
		return l.read(os.Stdin, 0, displayPath(root))
	}
	info, err := os.Stat(root)
	switch {
	case err != nil:
		return l.refuse(fmt.Errorf("landscape %w", config.WithPath(root, err)))
	case info.IsDir():
		return l.loadDir(os.DirFS(root), ".", root, small)
	}
	return l.addFile(decodeFile(os.DirFS(filepath.Dir(root)), filepath.Base(root), root, small))
}

// readSomething refuses a landscape all of whose objects are of kinds seedplan does not read — Deployments or
// Secrets where a garden's objects were meant, as `kubectl get deploy -o yaml` would pipe them — which would plan
// nothing; kubectl's apply refuses kinds it does not know too. A landscape with some objects seedplan reads, and the
// empty List of an empty garden, load.
func (l *Landscape) readSomething(paths []string) error {
	o := l.Objects
	if l.skipped == 0 || len(o.Seeds)+len(o.Shoots)+len(o.CloudProfiles)+len(o.NamespacedCloudProfiles)+len(o.Projects)+
		len(o.ConfigMaps)+len(o.ManagedSeedSets) > 0 {
		return nil
	}
	names := make([]string, len(paths))
	for i, path := range paths {
		names[i] = displayPath(path)
	}
	return fmt.Errorf("landscape: no object in %s is of a kind seedplan reads (Seed, Shoot, CloudProfile, "+
		"NamespacedCloudProfile, Project, ManagedSeedSet, ConfigMap): %d of other kinds, the first %s",
		strings.Join(names, ", "), l.skipped, l.firstSkipped)
}

// noObjects is the error of a landscape whose files and standard input hold no document but empty ones. It is
// what a pipe gives when the command writing it failed (`kubectl get … -o yaml` with expired credentials): an
// empty garden is a List of no items, as kubectl writes it, and loads. kubectl's apply refuses such input too.
func noObjects(paths []string) error {
	names := make([]string, len(paths))
	for i, path := range paths {
		names[i] = displayPath(path)
	}
	return fmt.Errorf("landscape: no object in %s: empty, or only comments and document separators "+
		"(an empty garden is a List without items, as `kubectl get -o yaml` writes it)", strings.Join(names, ", "))
}

// displayPath is a path given to LoadPaths as messages name it: "-" is standard input.
func displayPath(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}

// givenOnce refuses paths that would read something twice, before anything is read: standard input given again
// would silently add nothing, and a file read twice — given again in another spelling or through a link, or inside
// a directory also given — would be refused object by object as a duplicate of itself.
func givenOnce(paths []string) error {
	given := make([]givenPath, 0, len(paths))
	for _, path := range paths {
		p := givenPath{arg: path}
		if path != "-" {
			p.resolved, p.kind = resolvedPath(path), kindOf(path)
		}
		for _, before := range given {
			switch {
			case p.arg == "-" && before.arg == "-":
				return errors.New(`landscape: "-" (standard input) is given more than once`)
			case p.arg == "-" || before.arg == "-": // standard input and a path: nothing to compare
			case p.kind != "" && p.resolved == before.resolved:
				return fmt.Errorf("landscape: %s and %s are the same %s: it would be read twice", before.arg, p.arg, p.kind)
			case before.holds(p):
				return fmt.Errorf("landscape: %s is inside %s, given before it: it would be read twice", p.arg, before.arg)
			case p.holds(before):
				return fmt.Errorf("landscape: %s, given before %s, is inside it: it would be read twice", before.arg, p.arg)
			}
		}
		given = append(given, p)
	}
	return nil
}

// givenPath is a landscape path as given, resolved (resolvedPath), and what it is (kindOf), each looked up once.
type givenPath struct{ arg, resolved, kind string }

// holds reports whether reading the directory d reads p too: p lies below it and is a directory or a manifest file.
func (d givenPath) holds(p givenPath) bool {
	if d.kind != "directory" || p.kind != "directory" && (p.kind != "file" || !isManifest(p.arg)) {
		return false
	}
	rel, err := filepath.Rel(d.resolved, p.resolved)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// resolvedPath is path absolute, cleaned and, where it exists, with its links followed, so that two spellings of
// one file compare equal.
func resolvedPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// kindOf says whether path is a directory or a file (whatever other kind it is), or "" when it cannot be found.
func kindOf(path string) string {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return ""
	case info.IsDir():
		return "directory"
	}
	return "file"
}

// warnIfIncomplete warns when the landscape lacks what every placement needs, so that "placed 0 of 0" is never
// the only answer to files that hold something else.
func (l *Landscape) warnIfIncomplete() {
	if len(l.Objects.Seeds) == 0 {
		l.Warnings = append(l.Warnings, "the landscape has no Seeds: no shoot can be placed")
	}
	if len(l.Objects.CloudProfiles) == 0 && len(l.Objects.NamespacedCloudProfiles) == 0 {
		l.Warnings = append(l.Warnings, "the landscape has no CloudProfiles: shoots that reference one cannot be placed")
	}
	if len(l.Objects.Shoots) == 0 {
		l.Warnings = append(l.Warnings, "the landscape has no Shoots: nothing to place")
	}
}

// LoadFS reads every landscape file under dir in fsys, like LoadPaths does for a directory.
func LoadFS(fsys fs.FS, dir string) (*Landscape, error) {
	l := &Landscape{}
	if err := l.loadDir(fsys, dir, dir, smallFileArenas()); err != nil {
		return nil, err
	}
	if err := l.refusal(); err != nil {
		return nil, err
	}
	return l, nil
}

// loadDir adds the objects of a directory's files (ManifestFiles), in order. Its error is the load's when it must
// stop (refuse).
func (l *Landscape) loadDir(fsys fs.FS, dir, displayRoot string, small *sync.Pool) error {
	display := func(f string) string {
		if rel, err := filepath.Rel(dir, f); err == nil {
			return filepath.Join(displayRoot, rel)
		}
		return f
	}
	files, err := ManifestFiles(fsys, dir)
	if pathErr := (*fs.PathError)(nil); errors.As(err, &pathErr) { // a directory in it that cannot be read
		return l.refuse(fmt.Errorf("landscape %w", config.WithPathNamed(display(pathErr.Path), pathErr.Path, err)))
	}
	if err != nil {
		return l.refuse(fmt.Errorf("landscape %s: %w", displayRoot, err))
	}
	if len(files) == 0 {
		return l.refuse(fmt.Errorf("landscape %s: no .yaml, .yml or .json files in it", displayRoot))
	}
	// Files are read and decoded on every processor, a batch at a time, and each is added in its turn, so the
	// objects, the duplicates and the first error are those of reading the files one after another: one after
	// another, a directory of a file per object spends its time opening and reading them on one processor. A large
	// file decodes on every processor itself, beside the small files of its batch: in a turn of its own it waited
	// for the batch's last small file on one processor while the other idled.
	return inBatches(len(files), func(i int) *decodedFile { return decodeFile(fsys, files[i], display(files[i]), small) }, l.addFile)
}

// ManifestFiles are the files a landscape directory is read from, in the order they are read: every .yaml, .yml
// and .json file in dir and below it.
func ManifestFiles(fsys fs.FS, dir string) ([]string, error) {
	var files []string
	err := fs.WalkDir(fsys, dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && isManifest(path) {
			files = append(files, path)
		}
		return nil
	})
	slices.Sort(files)
	return files, err
}

// inBatches decodes n things on every processor, a batch at a time so that a failure stops the work soon, and
// hands them to use in order, up to the first use that fails, whose error it is.
func inBatches[T any](n int, decode func(i int) T, use func(T) error) error {
	const batch = 256
	for start := 0; start < n; start += batch {
		decoded := make([]T, min(batch, n-start))
		model.OnEveryProcessor(len(decoded), func(i int) { decoded[i] = decode(start + i) })
		for _, d := range decoded {
			if err := use(d); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodedFile is a file read and decoded, not added yet: its bytes, its documents (each with its objects or why it
// was refused), and the error of the file itself, if it could not be read or split into documents.
type decodedFile struct {
	bytes     int64
	documents []decodedDocument
	err       error
	// unmapped, of a mapped file, is closed once it is unmapped, after the error of unmapping it if any.
	unmapped <-chan error
}

// decodeFile reads and decodes one file without changing anything shared. It must be a regular file (or a link to
// one): opening a named pipe blocks until someone writes to it, and a device may never end. A large file is mapped
// where it can be; a small one is decoded in the arenas of small.
func decodeFile(fsys fs.FS, path, display string, small *sync.Pool) *decodedFile {
	f, size, err := openFile(fsys, path, display)
	if err != nil {
		return &decodedFile{err: err}
	}
	defer f.Close()
	if file, ok := f.(*os.File); ok && size >= largeFile {
		if data, err := mapFile(file, size); err == nil {
			return decodeMapped(file, data, display)
		}
	}
	data, err := readFile(f, size, display)
	if err != nil {
		return &decodedFile{err: err}
	}
	return decodeData(display, data, small)
}

// decodeData decodes one file's content without adding it, a small file's in the arenas of small.
func decodeData(name string, data []byte, small *sync.Pool) *decodedFile {
	file := &decodedFile{bytes: int64(len(data))}
	file.documents, file.err = decodeContent(name, data, small)
	return file
}

// addFile adds a decoded file's objects, in order, up to its error, which it refuses. Its error is the load's when
// it must stop (refuse).
func (l *Landscape) addFile(file *decodedFile) error {
	l.Bytes += file.bytes
	objects := 0
	for _, document := range file.documents {
		objects += document.objects.n
	}
	l.reserve(objects)
	var stop error
	for _, document := range file.documents {
		if document.refused != nil {
			stop = l.refuse(document.refused)
		} else {
			stop = l.addDocument(document)
		}
		if stop != nil {
			break
		}
	}
	for _, err := range []error{file.err, file.waitUnmapped()} {
		if err != nil && stop == nil {
			stop = l.refuse(err)
		}
	}
	return stop
}

// waitUnmapped waits until a mapped file is unmapped, and is the error of unmapping it.
func (file *decodedFile) waitUnmapped() error {
	if file.unmapped == nil {
		return nil
	}
	return <-file.unmapped
}

// once records where an object was read and reports whether it was read for the first time. One read before is
// refused, naming both places, by the error returned — or by none when an earlier object of its document was also
// read before in that same document: the refusal of that earlier object counts it (duplicateObjects).
func (l *Landscape) once(where place, object string) (first bool, err error) {
	before, ok := l.where[object]
	if !ok {
		if l.where == nil {
			l.where = map[string]place{}
		}
		l.where[object] = where
		return true, nil
	}
	pair := [2]*source{where.in, before.in}
	if d := l.duplicates[pair]; d != nil {
		d.more++
		return false, nil
	}
	d := &duplicateObjects{where: where, before: before, object: object}
	if l.duplicates == nil {
		l.duplicates = map[[2]*source]*duplicateObjects{}
	}
	l.duplicates[pair] = d
	return false, d
}

// readsKind reports whether seedplan reads objects of the kind, of some apiVersion.
func readsKind(kind string) bool {
	for t := range objectKinds {
		if t.kind == kind {
			return true
		}
	}
	return false
}

func isManifest(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// openFile opens a landscape file, which must be a regular file within MaxFileSize, and is its size when it was
// looked at.
func openFile(fsys fs.FS, path, display string) (fs.File, int64, error) {
	info, err := fs.Stat(fsys, path)
	if err != nil {
		return nil, 0, config.WithPathNamed(display, path, err)
	}
	if err := config.CheckFileInfo(display, info, MaxFileSize); err != nil {
		return nil, 0, err
	}
	f, err := fsys.Open(path)
	if err != nil {
		return nil, 0, config.WithPathNamed(display, path, err)
	}
	return f, info.Size(), nil
}

// decodeMapped decodes the mapped bytes of a large file (mapFile) and unmaps them while its objects are added:
// nothing decoded refers to them, and the unmapping takes little of the time the adding does.
// A file that shrinks while it is mapped takes the pages past its new end away, and reading one faults; that is
// an error about the file instead of a crash. Bytes appended to it after it was mapped are not read.
func decodeMapped(f *os.File, data []byte, display string) (file *decodedFile) {
	defer func() {
		unmapped := make(chan error, 1)
		file.unmapped = unmapped
		go func() {
			if err := unmapFile(data); err != nil {
				unmapped <- fmt.Errorf("%s: unmapping it: %w", display, err)
			}
			close(unmapped)
		}()
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if !faultIn(r, data) {
				panic(r) // a fault elsewhere is a bug
			}
			file = &decodedFile{bytes: int64(len(data)), err: changedWhileRead(f, display, len(data))}
		}
	}()
	file = decodeData(display, data, nil) // large: no small file's arena
	file.detach()
	return file
}

// detach makes a decoded file hold nothing of the bytes it was decoded from, a mapping unmapped before its objects
// are added: an object the strict decoder reads as it is added gets a copy of its JSON, and one the fast decoder
// read needs none.
func (file *decodedFile) detach() {
	for i := range file.documents {
		file.documents[i].detach()
	}
}

// faultIn reports whether a recovered panic is a memory fault within data. Its address is read where it was
// recovered: the runtime keeps it only until recovery ends.
func faultIn(recovered any, data []byte) bool {
	fault, ok := recovered.(interface{ Addr() uintptr })
	if !ok || len(data) == 0 {
		return false
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return fault.Addr() >= start && fault.Addr()-start < uintptr(len(data))
}

// changedWhileRead is the error about a mapped file of size bytes whose pages went away while it was read: it
// shrank, and may have been written again since (a `kubectl get … > file` truncates it first).
func changedWhileRead(f *os.File, display string, size int) error {
	if info, err := f.Stat(); err == nil && info.Size() < int64(size) {
		return fmt.Errorf("%s: the file shrank from %d to %d bytes while it was read; read it once it is written", display, size, info.Size())
	}
	return fmt.Errorf("%s: the file was cut short and written again while it was read; read it once it is written", display)
}

// read decodes what r holds, at most MaxFileSize bytes; size is what r is expected to hold (0: unknown) and
// display names it in messages.
func (l *Landscape) read(r io.Reader, size int64, display string) error {
	data, err := readFile(r, size, display)
	if err != nil {
		return l.refuse(err)
	}
	return l.addFile(decodeData(display, data, smallFileArenas()))
}

// readFile reads what r holds, as read does, refusing more than MaxFileSize bytes.
func readFile(r io.Reader, size int64, display string) ([]byte, error) {
	data, err := readAtMost(r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", display, err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: file is more than the limit of %d bytes (%d MiB)", display, MaxFileSize, MaxFileSize>>20)
	}
	return data, nil
}

// readAtMost reads r to its end, but no more than MaxFileSize+1 bytes. A buffer of the expected size is
// allocated once: growing one from nothing would copy a large file's bytes about twice over. A large file is
// read in parts on every processor (readInParts).
func readAtMost(r io.Reader, size int64) ([]byte, error) {
	if file, ok := r.(io.ReaderAt); ok && size >= largeFile && size <= MaxFileSize {
		return readInParts(file, size)
	}
	limited := io.LimitReader(r, MaxFileSize+1)
	if size <= 0 {
		return io.ReadAll(limited)
	}
	// The slack lets the read that finds the end of the file do so without growing the buffer.
	buf := bytes.NewBuffer(make([]byte, 0, min(size, MaxFileSize)+bytes.MinRead))
	_, err := buf.ReadFrom(limited)
	return buf.Bytes(), err
}

// largeFile is the size from which a file is mapped (mapFile) or, where it cannot be, read in parts: copying it
// out of the page cache, into pages the kernel first has to fault in, takes one processor about 5 ms per 20 MB,
// before any of it is decoded. From 1 MB, 256 pages, that costs more than mapping and unmapping the file.
const largeFile = 1 << 20

// readInParts reads a file expected to hold size bytes as readAtMost does, the expected bytes in a part for each
// processor, at once. Bytes beyond them, if the file grew since it was measured, are read after them; if it
// shrank, it is read again from its start, one part after another.
func readInParts(file io.ReaderAt, size int64) ([]byte, error) {
	data := make([]byte, size, size+bytes.MinRead)
	parts := runtime.GOMAXPROCS(0)
	errs := make([]error, parts)
	model.OnEveryProcessor(parts, func(i int) {
		from, to := size*int64(i)/int64(parts), size*int64(i+1)/int64(parts)
		_, errs[i] = file.ReadAt(data[from:to], from)
	})
	for _, err := range errs {
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
	}
	if slices.ContainsFunc(errs, func(err error) bool { return err != nil }) {
		return readAtMost(io.NewSectionReader(file, 0, MaxFileSize+1), 0) // shrunk: its parts ended early
	}
	grown := bytes.NewBuffer(data)
	_, err := grown.ReadFrom(io.NewSectionReader(file, size, MaxFileSize+1-size))
	return grown.Bytes(), err
}

// Decode adds the objects of one file's content — YAML or JSON, several documents, Lists — to the landscape, and
// its bytes to Bytes. name is used in messages. A JSON stream (objects one after another, as kubectl reads them) is decoded as JSON,
// without the YAML conversion; YAML documents are separated by "---" and may be ended by "...". Its error is every
// refusal of the landscape's loads so far, each on its own line.
func (l *Landscape) Decode(name string, data []byte) error {
	if err := l.addFile(decodeData(name, data, smallFileArenas())); err != nil {
		return err
	}
	return l.refusal()
}

// decodeContent decodes the documents of one file's content, in UTF-8 (utf8Content), on every processor
// (inBatches), without adding them: each with its objects or why it was refused, up to the maxRefused-th refused,
// where the load stops (refuse); the error is the file's own, when it cannot be read as documents at all.
func decodeContent(name string, data []byte, small *sync.Pool) ([]decodedDocument, error) {
	data, err := utf8Content(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	n, decode, err := fileDocuments(name, data, small)
	if err != nil {
		return nil, err
	}
	type result struct {
		document decodedDocument
		err      error
	}
	documents := make([]decodedDocument, 0, n)
	refused := 0
	// Its only error is that enough documents were refused: each refusal is in its document.
	_ = inBatches(n, func(i int) result {
		document, err := decode(i)
		return result{document, err}
	}, func(r result) error {
		if r.err != nil {
			r.document, refused = decodedDocument{refused: r.err}, refused+1
		}
		documents = append(documents, r.document)
		if refused == maxRefused {
			return errEnoughRefused
		}
		return nil
	})
	return documents, nil
}

// fileDocuments splits a file's content into its documents: how many there are, and how the i-th is decoded,
// once, without adding it. A small file's are read and decoded in the arenas of small (arenas).
func fileDocuments(name string, data []byte, small *sync.Pool) (int, func(i int) (decodedDocument, error), error) {
	var documents []document
	var ok bool
	// A small file is read in an arena of the load's; a large List's stretches have arenas of their own.
	inArena(arenas(1, len(data), small), func(in *arena) { documents, ok = readDocuments(data, in) })
	if ok {
		pool := arenas(len(documents), len(data), small)
		return len(documents), func(i int) (d decodedDocument, err error) {
			where := name // a stream's objects are its documents (splitObjects)
			if !documents[i].stream {
				where = fmt.Sprintf("%s: document %d", name, i+1)
			}
			inArena(pool, func(in *arena) { d, err = decodeDocument(where, documents[i], true, in) })
			return d, err
		}, nil
	}
	raws, ok := splitYAML(data)
	if !ok {
		var err error
		if raws, err = yamlDocuments(data); err != nil {
			return 0, nil, fmt.Errorf("%s: document %d: %w", name, len(raws)+1, err)
		}
	}
	pool := arenas(len(raws), len(data), small)
	return len(raws), func(i int) (d decodedDocument, err error) {
		// Each document is read once: once the last is transcoded nothing holds the file's bytes, and a large
		// List is decoded without them beside its JSON.
		raw := raws[i]
		raws[i] = yamlDocument{}
		raw.oneOfSeveral = len(raws) > 1
		inArena(pool, func(in *arena) { d, err = decodeYAML(name, i+1, raw, in) })
		if err == nil && raw.oneOfSeveral && d.strictObject() {
			d.in.lines = raw.lines() // should the object have no kind (errWithoutKind)
		}
		return d, err
	}, nil
}

// smallFileArenas is the pool of arenas the small files of one load are decoded in: a directory of a file per
// object, or of a List per namespace, fills a few arenas, one per processor at a time, instead of starting one per
// file, which would cost more than it saves, or none.
func smallFileArenas() *sync.Pool {
	return arenaPool(largeFile)
}

// arenas is the pool of arenas the documents of a file of size bytes are decoded in (inArena), each sharing its
// strings and slabs with what was decoded in it before: a small file's are the load's (small); a large file of
// several documents has a pool of its own, and one of a single document none (a large List's stretches have
// their own arenas).
func arenas(documents, size int, small *sync.Pool) *sync.Pool {
	switch {
	case size < largeFile:
		return small
	case documents < 2:
		return nil
	}
	return arenaPool(size / runtime.GOMAXPROCS(0))
}

// arenaPool is a pool of arenas, each for about size bytes of JSON. An arena shared by many documents interns
// many strings: its cache is written whole when it is made, by the processor that takes it (freshWrite).
func arenaPool(size int) *sync.Pool {
	return &sync.Pool{New: func() any {
		a := newArena(size)
		clear(a.interned.slots)
		return &a
	}}
}

// inArena calls use with an arena of the pool, none if the pool is nil, which nothing else uses meanwhile.
func inArena(pool *sync.Pool, use func(*arena)) {
	if pool == nil {
		use(nil)
		return
	}
	in := pool.Get().(*arena)
	defer pool.Put(in)
	use(in)
}

// largeDocument is the size from which a YAML document is transcoded in parts where it can be (transcodeInParts).
const largeDocument = 1 << 20

// decodeYAML decodes what the number-th YAML document of file holds, not yet added; it changes nothing shared but
// the arena, if any (decodeJSON). A document in the block style Kubernetes tools write is transcoded to JSON in one
// pass; any other goes through the input budget and the full YAML decoder, whose errors name lines of the file
// (parserError, unreadable).
func decodeYAML(file string, number int, document yamlDocument, in *arena) (decodedDocument, error) {
	where := fmt.Sprintf("%s: document %d", file, number)
	raw := document.text
	if len(bytes.TrimSpace(raw)) == 0 {
		return decodedDocument{}, nil
	}
	var jsonDoc []byte
	var fast bool
	scratch := false
	switch {
	case len(raw) >= largeDocument:
		jsonDoc, fast = transcodeInParts(raw, runtime.GOMAXPROCS(0)*listChunksPerProcessor, convertEntry)
	case in != nil:
		jsonDoc, fast, _ = transcode(in.transcoded, raw, wholeDocument)
		scratch = fast
	default:
		jsonDoc, fast = transcodeYAML(raw)
	}
	if !fast {
		if err := model.CheckBudget(raw); err != nil {
			return decodedDocument{}, fmt.Errorf("%s: %w", budgetPlace(where, raw, err), document.parserError(err))
		}
		var err error
		if jsonDoc, err = config.YAMLToJSON(raw); err != nil {
			if path := notANumber(raw); path != "" {
				return decodedDocument{}, fmt.Errorf("%s%s: field %s: NaN and infinities are not numbers JSON holds", where, objectOf(raw), path)
			}
			return decodedDocument{}, document.unreadable(file, number, err)
		}
	}
	if string(bytes.TrimSpace(jsonDoc)) == "null" {
		return decodedDocument{}, nil // a document holding only comments
	}
	d, err := decodeJSON(where, jsonDoc, in)
	if scratch {
		d.detach()
		in.transcoded = jsonDoc[:0]
	}
	return d, err
}

// detach makes the document's objects hold nothing of the JSON they were decoded from (a mapped file's bytes, or
// the array of an arena its YAML was transcoded into): an object the fast decoder read needs none, and one the
// strict decoder reads as it is added gets a copy.
func (d *decodedDocument) detach() {
	for _, block := range d.objects.blocks {
		for i := range block {
			if block[i].typed != nil {
				block[i].raw = nil
			} else {
				block[i].raw = bytes.Clone(block[i].raw)
			}
		}
	}
}

// convertEntry converts an entry of a large List's items that the transcoder leaves with the full YAML decoder,
// to what converting the whole List makes of it, within the List's input budget: an entry that may hold an alias
// (whose expansion the budget counts over the whole List) or that nests deeper than a List's item may, ok false,
// sends the whole List to the transcoder, and where that leaves it, through the budget and the full decoder,
// which word why. So does an entry that holds a byte order mark: go-yaml skips the first character of a line
// while its read buffer begins with the mark (it looks for the mark there, not at the line), which depends on
// where the mark lies in the whole List.
func convertEntry(entry []byte) (json []byte, ok bool) {
	if bytes.IndexByte(entry, '*') >= 0 || bytes.Contains(entry, []byte(config.ByteOrderMark)) || model.CheckBudget(entry) != nil {
		return nil, false
	}
	json, err := config.YAMLToJSON(entry)
	if err != nil || nestsDeeper(json, model.MaxNesting-1) { // [item], as deep as the List's items may nest
		return nil, false
	}
	return json, true
}

// yamlDocument is one document of a YAML file and the line of the file it begins on.
type yamlDocument struct {
	text []byte
	line int
	// oneOfSeveral is set for a document of a file that holds others: an error that names no line then names the
	// document's lines, since "document 7" sends no editor anywhere.
	oneOfSeveral bool
}

// lines words the lines of its file the document spans: "line 5", "lines 5-9".
func (d yamlDocument) lines() string {
	last := d.line + lineFeeds(bytes.TrimSuffix(d.text, []byte("\n")))
	if last == d.line {
		return fmt.Sprintf("line %d", d.line)
	}
	return fmt.Sprintf("lines %d-%d", d.line, last)
}

// errWithoutKind is the refusal of a document whose object has no kind.
var errWithoutKind = errors.New("object without kind")

// lineFeeds counts the line feeds in text: the lines that end in it, as an editor counts a file's lines.
func lineFeeds(text []byte) int { return bytes.Count(text, []byte("\n")) }

// yamlErrorLine is a line number in a YAML parser's message: "yaml: line 3: " of a syntax error (also inside
// another message), and each "\n  line 3: " of an unmarshal error's list.
var yamlErrorLine = regexp.MustCompile(`(yaml: |\n  )line (\d+):`)

// unreadable is the refusal of the number-th document of file, which neither the JSON reader nor the YAML parser
// reads (yamlErr is the parser's error). A document that is JSON is refused in the JSON reader's words, with the
// fault's line and column (config.JSONFault): the values of a stream are the documents of a file that is the
// stream, as when it is read without fault, and a stream inside one of several YAML documents is named by that
// document, for a fault in its first value only. Any other is refused in the parser's words (parserError).
func (d yamlDocument) unreadable(file string, number int, yamlErr error) error {
	if value, fault := config.JSONFault(d.text, d.line); fault != nil && (value == 0 || !d.oneOfSeveral) {
		return fmt.Errorf("%s: document %d: not valid JSON: %w", file, number+value, fault)
	}
	return fmt.Errorf("%s: document %d: not valid YAML or JSON: %w", file, number, d.parserError(yamlErr))
}

// parserError is err, the YAML parser's error about the document (or the input budget's, which may hold it), with
// each line it names counted from the file's start, as an editor counts them and as they already are in a file's
// first document: the parser counts from the document's start, so that "line 6" of a file's tenth document would
// send an operator to its sixth line. An error that names no line ("unknown anchor", "invalid map key") names the
// lines the document spans, if the file holds others. A character the parser refuses, which it does not say where
// it is, is named by its line and column (config.CharacterFault).
func (d yamlDocument) parserError(err error) error {
	if where := config.CharacterFault(err, d.text, d.line); where != "" {
		return fmt.Errorf("%w (%s)", err, where)
	}
	switch {
	case d.oneOfSeveral && !yamlErrorLine.MatchString(err.Error()):
		return spanning(err, d.lines())
	case d.line > 1:
		return &fileLinesError{err: err, before: d.line - 1}
	}
	return err
}

// spanning is err about a document with the lines of its file the document spans ("lines 8-15").
func spanning(err error, lines string) error {
	return fmt.Errorf("%w (the document is %s of the file)", err, lines)
}

// fileLinesError is a YAML parser's error whose line numbers are counted from the start of the document's file.
type fileLinesError struct {
	err error
	// before is how many lines of the file come before the document's.
	before int
}

// Error is the parser's message with its line numbers counted from the file's start.
func (e *fileLinesError) Error() string {
	return yamlErrorLine.ReplaceAllStringFunc(e.err.Error(), func(match string) string {
		parts := yamlErrorLine.FindStringSubmatch(match)
		n, err := strconv.Atoi(parts[2])
		if err != nil {
			return match
		}
		return parts[1] + "line " + strconv.Itoa(n+e.before) + ":"
	})
}

// Unwrap is the parser's error, or the input budget's.
func (e *fileLinesError) Unwrap() error { return e.err }

// yamlDocuments splits YAML into its documents: at "---" lines and after "..." lines (a document's end). On an
// error it returns the documents read before it.
func yamlDocuments(data []byte) ([]yamlDocument, error) {
	var stream io.Reader = bytes.NewReader(data)
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		// apimachinery's reader drops a last line without a line feed whose length is a multiple of its buffer's
		// (4 KiB): the line comes with io.EOF, which it takes for the end before keeping the line. Ended, the
		// line is kept, and it means the same.
		stream = io.MultiReader(stream, strings.NewReader("\n"))
	}
	reader := utilyaml.NewYAMLReader(bufio.NewReader(stream))
	var documents []yamlDocument
	for line := 1; ; {
		raw, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return documents, nil
		}
		if err != nil {
			return documents, err
		}
		// The reader ends each line it returns with a line feed, and drops the "---" line that ends a document.
		next := line + lineFeeds(raw) + 1
		for len(raw) > 0 {
			end := documentEnd.FindIndex(raw)
			if end == nil {
				documents = append(documents, yamlDocument{text: raw, line: line})
				break
			}
			documents = append(documents, yamlDocument{text: raw[:end[0]], line: line})
			line += lineFeeds(raw[:end[1]])
			raw = raw[end[1]:]
		}
		line = next
	}
}

// documentEnd is a YAML document end marker: "..." alone on its line.
var documentEnd = regexp.MustCompile(`(?m)^\.\.\.[ \t]*(#.*)?(\r?\n|$)`)

// header is what every object is read for first: its type and name, so errors can name it.
type header struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Metadata   headerMeta      `json:"metadata"`
	Items      json.RawMessage `json:"items"`
	// hasItems is set by readDocument and readList for a document with items.
	hasItems bool
}

type headerMeta struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// decodeObject adds what one JSON document holds: an object, or the items of a List.
func (l *Landscape) decodeObject(where string, data []byte) error {
	document, err := decodeJSON(where, data, nil)
	if err != nil {
		return err
	}
	return l.addDocument(document)
}

// decodeObjectStrictly adds what one JSON document holds, decoding it strictly: every unknown or duplicate field
// is a warning, every other error names the field.
func (l *Landscape) decodeObjectStrictly(where string, data []byte) error {
	var h header
	if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &h); err != nil {
		return headerError(where, data, err)
	}
	if h.Kind == "" {
		if string(bytes.TrimSpace(data)) == "null" { // a List's item written as a "-" alone
			return fmt.Errorf("%s: empty (null), not an object", where)
		}
		return fmt.Errorf("%s: %w%s", where, errWithoutKind, seedplanAnswer(data))
	}
	if h.Kind == "List" || (strings.HasSuffix(h.Kind, "List") && h.Items != nil) {
		if name, times := repeatedName(data); times > 0 {
			// Only the last would be read: most often files joined into one document, each List's items but the
			// last's dropped. (An object's repeated field is a warning, as the API server's; a List never gets there.)
			return fmt.Errorf("%s: %s: field %s: given %d times (documents in one file are separated by ---)", where, h.Kind, name, times)
		}
		var list struct {
			APIVersion string            `json:"apiVersion"`
			Kind       string            `json:"kind"`
			Metadata   json.RawMessage   `json:"metadata"`
			Items      []json.RawMessage `json:"items"`
		}
		// Of a List's own fields only its items are read, but a field no List has is warned of as an object's is:
		// a misspelt items would otherwise leave the List's objects out without a word.
		if err := l.strictDecode(where, h.Kind, data, &list); err != nil {
			return err
		}
		itemKind := strings.TrimSuffix(h.Kind, "List")
		for i, item := range list.Items {
			itemWhere := place{in: &source{document: where, list: h.Kind}, item: i}.String()
			if itemKind != "" {
				// Items of a typed list (SeedList) may omit apiVersion and kind.
				item = withDefaultType(item, h.APIVersion, itemKind)
			}
			if err := l.decodeObject(itemWhere, item); err != nil {
				if stop := l.refuse(err); stop != nil {
					return stop
				}
			}
		}
		return nil
	}

	object := objectName(h.Kind, h.Metadata.Namespace, h.Metadata.Name)
	group := strings.Split(h.APIVersion, "/")[0]
	if typed, validate := newObject(h); typed != nil {
		if first, err := l.once(place{in: &source{document: where}}, object); !first {
			return err
		}
		if err := l.strictDecode(where, object, data, typed); err != nil {
			return err
		}
		if err := validate(where, object, typed); err != nil {
			return err
		}
		l.appendObject(typed)
		return nil
	}
	switch {
	case group == "core.gardener.cloud" && h.APIVersion != gardencorev1beta1.SchemeGroupVersion.String():
		return fmt.Errorf("%s: %s: apiVersion %q is not supported, use %s", where, object, h.APIVersion, gardencorev1beta1.SchemeGroupVersion)
	case h.APIVersion == "" && readsKind(h.Kind):
		// Skipped as an unknown kind, it would never be planned, and nobody would know why.
		return fmt.Errorf("%s: %s: field apiVersion: required", where, object)
	}
	l.Warnings = append(l.Warnings, fmt.Sprintf("%s: skipping %s (%s): not a kind seedplan reads", where, object, h.APIVersion))
	if l.skipped++; l.skipped == 1 {
		l.firstSkipped = fmt.Sprintf("%s (%s) at %s", object, h.APIVersion, where)
	}
	return nil
}

// headerError words why an object's apiVersion, kind, name or namespace do not decode: by the field, as the rest of
// an object's errors are ("field metadata.name: must be a string, not a boolean", a name YAML reads as true), with
// the kind if it can be read.
func headerError(where string, data []byte, err error) error {
	if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		return fmt.Errorf("%s: not a Kubernetes object (expected a mapping with apiVersion and kind)", where)
	}
	var refused *config.DecodeError
	if _, strictErr := config.DecodeStrict(data, &header{}); !errors.As(strictErr, &refused) || refused.Field == "" {
		return fmt.Errorf("%s: not a Kubernetes object: %v", where, err)
	}
	var kind struct{ Kind string }
	if json.Unmarshal(data, &kind) == nil && kind.Kind != "" {
		where += ": " + kind.Kind
	}
	return fmt.Errorf("%s: field %s: %s", where, refused.Field, refused.Problem)
}

// repeatedName is the first name the JSON object data gives more than once, and how many times it gives it; times
// is 0 when it repeats none.
func repeatedName(data []byte) (name string, times int) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), config.SyntaxOnly)
	if token, err := dec.ReadToken(); err != nil || token.Kind() != '{' {
		return "", 0
	}
	count := map[string]int{}
	var order []string
	for dec.PeekKind() == '"' {
		token, err := dec.ReadToken()
		if err != nil {
			break
		}
		name := token.String() // before the token is voided by the next read
		if count[name]++; count[name] == 1 {
			order = append(order, name)
		}
		if dec.SkipValue() != nil {
			break
		}
	}
	for _, name := range order {
		if count[name] > 1 {
			return name, count[name]
		}
	}
	return "", 0
}

// strictDecode decodes into the typed object. Wrong types are errors naming the field; unknown or duplicate
// fields are warnings (a newer Gardener may have fields this version does not know).
func (l *Landscape) strictDecode(where, object string, data []byte, into any) error {
	strictErrs, err := config.DecodeStrict(data, into)
	if err != nil {
		return decodeError(where, object, err)
	}
	for _, e := range strictErrs {
		l.Warnings = append(l.Warnings, fmt.Sprintf("%s: %s: ignoring %v", where, object, e))
	}
	return nil
}

// decodeError words config.DecodeStrict's error about object, read at where: by the field it names, if any.
func decodeError(where, object string, err error) error {
	var refused *config.DecodeError
	if errors.As(err, &refused) && refused.Field != "" {
		return fmt.Errorf("%s: %s: field %s: %s", where, object, refused.Field, refused.Problem)
	}
	return fmt.Errorf("%s: %s: %w", where, object, err)
}

// validateSeed refuses a seed that no garden holds: what the gardener-apiserver validates.
func validateSeed(where, object string, seed *gardencorev1beta1.Seed) error {
	if err := requireName(where, object, seed.ObjectMeta, false); err != nil {
		return err
	}
	if err := dnsLabel(where, object, "metadata.name", seed.Name); err != nil {
		return err
	}
	switch {
	case seed.Spec.Provider.Type == "":
		return fmt.Errorf("%s: %s: field spec.provider.type: required", where, object)
	case seed.Spec.Provider.Region == "":
		return fmt.Errorf("%s: %s: field spec.provider.region: required", where, object)
	}
	return nil
}

// validateSeedFile refuses, besides what validateSeed refuses, a seed of a file whose region is longer than a
// region ConfigMap key (regionLength) or whose allocatable is not a whole number of shoots: a file is mended
// before it is planned. A garden holds what the gardener-apiserver lets it hold, and the gardener-scheduler plans
// with it: its allocatable is read as Gardener reads it, with a warning (model.MalformedAllocatables).
func validateSeedFile(where, object string, seed *gardencorev1beta1.Seed) error {
	if err := validateSeed(where, object, seed); err != nil {
		return err
	}
	if err := regionLength(where, object, "spec.provider.region", seed.Spec.Provider.Region); err != nil {
		return err
	}
	if q, ok := seed.Status.Allocatable[gardencorev1beta1.ResourceShoots]; ok && !model.WholeShoots(q) {
		if q.Sign() < 0 {
			return fmt.Errorf("%s: %s: field status.allocatable.shoots: must not be negative, is %s", where, object, q.String())
		}
		return fmt.Errorf("%s: %s: field status.allocatable.shoots: must be a whole number of shoots below 2^63, is %s", where, object, q.String())
	}
	return nil
}

func validateShoot(where, object string, shoot *gardencorev1beta1.Shoot) error {
	if err := requireName(where, object, shoot.ObjectMeta, true); err != nil {
		return err
	}
	if err := dnsLabel(where, object, "metadata.name", shoot.Name); err != nil {
		return err
	}
	if err := dnsLabel(where, object, "metadata.namespace", shoot.Namespace); err != nil {
		return err
	}
	switch {
	case shoot.Spec.Provider.Type == "":
		return fmt.Errorf("%s: %s: field spec.provider.type: required", where, object)
	case shoot.Spec.Region == "":
		return fmt.Errorf("%s: %s: field spec.region: required", where, object)
	}
	return nil
}

// validateShootFile refuses, besides what validateShoot refuses, a shoot of a file whose region is longer than a
// region ConfigMap key (regionLength).
func validateShootFile(where, object string, shoot *gardencorev1beta1.Shoot) error {
	if err := validateShoot(where, object, shoot); err != nil {
		return err
	}
	return regionLength(where, object, "spec.region", shoot.Spec.Region)
}

// dnsLabel refuses a name that is no DNS label: the gardener-apiserver validates seed and shoot names, and
// Kubernetes namespaces, as DNS labels, so no garden holds another, and a plan naming one could never be bound.
// The check by hand keeps loading fast; Kubernetes' own validation words what it refuses.
func dnsLabel(where, object, field, value string) error {
	if len(value) > validation.DNS1123LabelMaxLength {
		return fmt.Errorf("%s: %s: field %s: must be no more than %d characters (a DNS label, as Gardener validates it), is %d",
			where, object, field, validation.DNS1123LabelMaxLength, len(value))
	}
	if isDNSLabel(value) {
		return nil
	}
	return fmt.Errorf("%s: %s: field %s: invalid value %q: %s", where, object, field, value, strings.Join(validation.IsDNS1123Label(value), "; "))
}

// isDNSLabel reports whether a name of at most 63 bytes is a lowercase RFC 1123 label: lowercase letters, digits
// and '-', beginning and ending with a letter or digit.
func isDNSLabel(name string) bool {
	alphanumeric := func(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
	if name == "" || !alphanumeric(name[0]) || !alphanumeric(name[len(name)-1]) {
		return false
	}
	for i := 1; i < len(name)-1; i++ {
		if !alphanumeric(name[i]) && name[i] != '-' {
			return false
		}
	}
	return true
}

// regionLength refuses a region longer than a ConfigMap key may be: Gardener's region ConfigMaps hold regions as
// keys, and the distance fallback between two long regions costs their length times the band the fallback can
// choose from (model's editDistance) — of a file of 128 MiB, minutes. A garden's objects are at most megabytes,
// and its regions are planned whatever their length.
func regionLength(where, object, field, value string) error {
	if len(value) > validation.DNS1123SubdomainMaxLength {
		return fmt.Errorf("%s: %s: field %s: must be no more than %d characters (a region ConfigMap key), is %d",
			where, object, field, validation.DNS1123SubdomainMaxLength, len(value))
	}
	return nil
}

func requireName(where, object string, meta metav1.ObjectMeta, namespaced bool) error {
	if meta.Name == "" {
		return fmt.Errorf("%s: %s: field metadata.name: required", where, object)
	}
	if namespaced && meta.Namespace == "" {
		return fmt.Errorf("%s: %s: field metadata.namespace: required", where, object)
	}
	return nil
}

// seedplanAnswer says, of a document without kind that is one of seedplan's own JSON answers, which command wrote
// it, or is "": a plan written into the landscape directory it was planned from (schedule -o json > dir/plan.json)
// is read as part of the landscape the next time.
func seedplanAnswer(data []byte) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return ""
	}
	has := func(keys ...string) bool {
		for _, k := range keys {
			if _, ok := fields[k]; !ok {
				return false
			}
		}
		return true
	}
	for _, answer := range []struct {
		command string
		keys    []string
	}{
		{"schedule", []string{"window", "placements"}},
		{"rebalance", []string{"moves", "lowerBound"}},
		{"capacity", []string{"newSeeds", "unplaceable"}},
		{"explain", []string{"shoot", "rejections"}},
	} {
		if has(answer.keys...) {
			return fmt.Sprintf(": it is the output of seedplan %s, not a manifest; keep it out of the landscape's files and directories", answer.command)
		}
	}
	return ""
}

// objectName is kind namespace/name as messages print it; a name or namespace beyond any Kubernetes name is cut,
// so that one error stays one line.
func objectName(kind, namespace, name string) string {
	return string(appendObjectName(nil, kind, namespace, name))
}

// appendObjectName appends objectName's text to b.
func appendObjectName(b []byte, kind, namespace, name string) []byte {
	if name == "" {
		name = "<unnamed>"
	}
	b = append(append(b, kind...), ' ')
	if namespace != "" {
		b = append(append(b, shortened(namespace)...), '/')
	}
	return append(b, shortened(name)...)
}

// shortened is s, or its start and its length when it is longer than a Kubernetes name may be.
func shortened(s string) string {
	const most = 253 // a DNS subdomain, the longest Kubernetes name
	if len(s) <= most {
		return s
	}
	return fmt.Sprintf("%s…(%d characters)", strings.ToValidUTF8(s[:64], ""), len(s))
}

// withDefaultType sets apiVersion and kind on a list item that lacks them.
func withDefaultType(item []byte, apiVersion, kind string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(item, &m) != nil || m == nil {
		return item // not an object (null is none either): the strict decoder says so
	}
	changed := false
	if _, ok := m["kind"]; !ok {
		m["kind"], _ = json.Marshal(kind)
		changed = true
	}
	if _, ok := m["apiVersion"]; !ok && apiVersion != "" {
		m["apiVersion"], _ = json.Marshal(apiVersion)
		changed = true
	}
	if !changed {
		return item
	}
	out, err := json.Marshal(m)
	if err != nil {
		return item
	}
	return out
}

// objectOf names the object of a document that is not decoded, for its error: ": Kind namespace/name" from the
// top-level kind and metadata, read without expanding any alias, or "" when the document names none.
func objectOf(document []byte) string {
	var root yaml3.Node
	if yaml3.Unmarshal(document, &root) != nil || len(root.Content) == 0 {
		return ""
	}
	return nodeObject(root.Content[0], "")
}

// nodeObject is objectOf of a parsed object, whose kind is impliedKind if it names none (a typed List's item).
func nodeObject(object *yaml3.Node, impliedKind string) string {
	kind := impliedKind
	if n := field(object, "kind"); n != nil && n.Kind == yaml3.ScalarNode && n.Value != "" {
		kind = n.Value
	}
	if kind == "" {
		return ""
	}
	var namespace, name string
	if meta := field(object, "metadata"); meta != nil {
		if n := field(meta, "namespace"); n != nil && n.Kind == yaml3.ScalarNode {
			namespace = n.Value
		}
		if n := field(meta, "name"); n != nil && n.Kind == yaml3.ScalarNode {
			name = n.Value
		}
	}
	return ": " + objectName(kind, namespace, name)
}

// budgetPlace is where in a YAML document the input budget is broken, as messages name it: the List item nested
// too deep (a List of thousands, as kubectl prints it, is one document), else the document's object.
func budgetPlace(where string, document []byte, err error) string {
	var nesting *model.NestingError
	if errors.As(err, &nesting) {
		if item := listItemAt(where, document, nesting.Path); item != "" {
			return item
		}
	}
	return where + objectOf(document)
}

// listItemAt names the List item a path from CheckBudget leads into ("in.yaml: document 1: List item 3: Shoot
// ns/name"), or is "" when it leads elsewhere.
func listItemAt(where string, document []byte, path []int) string {
	var root yaml3.Node
	if len(path) < 3 || path[0] != 0 || yaml3.Unmarshal(document, &root) != nil || len(root.Content) != 1 {
		return ""
	}
	list, key := root.Content[0], path[1]
	kind := field(list, "kind")
	if kind == nil || list.Kind != yaml3.MappingNode || key%2 != 1 || key >= len(list.Content) || list.Content[key-1].Value != "items" ||
		!isList(header{Kind: kind.Value, hasItems: true}) {
		return ""
	}
	items := list.Content[key]
	if items.Kind != yaml3.SequenceNode || path[2] >= len(items.Content) {
		return ""
	}
	at := place{in: &source{document: where, list: kind.Value}, item: path[2]}
	return at.String() + nodeObject(items.Content[path[2]], strings.TrimSuffix(kind.Value, "List"))
}

// notANumber is the path of the first NaN or infinity in a YAML document, which the conversion to JSON refuses
// without naming it, or "".
func notANumber(document []byte) string {
	var root yaml3.Node
	if yaml3.Unmarshal(document, &root) != nil || len(root.Content) == 0 {
		return ""
	}
	var find func(n *yaml3.Node, path string) string
	find = func(n *yaml3.Node, path string) string {
		switch n.Kind {
		case yaml3.ScalarNode:
			value := strings.ToLower(n.Value)
			if n.Tag == "!!float" && (strings.HasSuffix(value, "nan") || strings.HasSuffix(value, "inf")) {
				return path
			}
		case yaml3.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if found := find(n.Content[i+1], config.MemberPath(path, n.Content[i].Value)); found != "" {
					return found
				}
			}
		case yaml3.SequenceNode:
			for i, child := range n.Content {
				if found := find(child, fmt.Sprintf("%s[%d]", path, i)); found != "" {
					return found
				}
			}
		}
		return ""
	}
	return find(root.Content[0], "")
}

// field is the value of a mapping's key, or nil.
func field(mapping *yaml3.Node, key string) *yaml3.Node {
	if mapping.Kind != yaml3.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(mapping.Content); i += 2 {
		if mapping.Content[i].Value == key {
			return mapping.Content[i+1]
		}
	}
	return nil
}
