import { CircleAlert, Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useImportKnowledge } from '../api/import-knowledge';
import { IMPORT_ACCEPT, knowledgeFileKind } from '../lib/file-kind';
import { importErrorLines } from '../lib/knowledge-form';
import { plural } from '../lib/training';

/** The contract's limit on the file's text. */
const MAX_CHARS = 5_000_000;

type Mode = 'replace' | 'append';

interface Problem {
  title: string;
  lines: string[];
}

/** Import FAQ entries from a CSV or JSON file, replacing the FAQ or adding to it. A refused file says which row is wrong. */
export function ImportKnowledgeDialog({ clientId }: { clientId: string }) {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<Mode>('replace');
  const [problem, setProblem] = useState<Problem | null>(null);
  const importer = useImportKnowledge(clientId);
  const modeName = useId();

  const reset = () => {
    setFile(null);
    setMode('replace');
    setProblem(null);
    importer.reset();
  };

  const submit = async () => {
    if (!file) {
      setProblem({ title: 'Choose a file', lines: ['Pick a .csv or .json file to import.'] });
      return;
    }
    const content = await file.text();
    const format = knowledgeFileKind(file.name, file.type, content);
    if (format === null) {
      setProblem({ title: 'Unsupported file', lines: [`${file.name} is neither CSV nor JSON. Choose a .csv or .json file.`] });
      return;
    }
    if (content.trim() === '') {
      setProblem({ title: 'The file is empty', lines: [`${file.name} has nothing to import.`] });
      return;
    }
    if (content.length > MAX_CHARS) {
      setProblem({ title: 'The file is too large', lines: ['Import at most 5 MB at a time.'] });
      return;
    }
    setProblem(null);
    importer.mutate(
      { format, content, mode },
      {
        onSuccess: (result) => {
          toast.success('Knowledge Imported', {
            description: `${plural(result.entries, 'entry', 'entries')} with ${plural(result.questions, 'example question', 'example questions')}; the agent is retraining.`,
          });
          setOpen(false);
          reset();
        },
        onError: (error) => {
          const lines = isApiError(error) ? importErrorLines(error.fields) : [];
          const message = errorMessage(error, 'The file could not be imported.');
          setProblem({ title: 'The file was not imported', lines: lines.length > 0 ? [message, ...lines.filter((l) => l !== message)] : [message] });
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <Upload aria-hidden />
          Import
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-xl">
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <DialogHeader>
            <DialogTitle>Import FAQ</DialogTitle>
            <DialogDescription>
              CSV with the header <code>question,answer,link</code> (link optional, one row per example question), or JSON{' '}
              <code>{'[{"questions": […], "answer": "…", "link": "…"}]'}</code>. Articles are kept.
            </DialogDescription>
          </DialogHeader>
          <FormField id="import-file" label="File">
            <Input
              id="import-file"
              type="file"
              accept={IMPORT_ACCEPT}
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                setProblem(null);
              }}
            />
          </FormField>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">The file’s entries</legend>
            {(
              [
                ['replace', 'Replace the FAQ', 'The FAQ becomes exactly the file’s entries.'],
                ['append', 'Add to the FAQ', 'The file’s entries join the ones already there.'],
              ] as const
            ).map(([value, label, hint]) => (
              <div key={value} className="flex items-start gap-2">
                <input
                  type="radio"
                  id={`import-mode-${value}`}
                  name={modeName}
                  value={value}
                  checked={mode === value}
                  onChange={() => setMode(value)}
                  className="mt-0.5 size-4 accent-primary"
                />
                <Label htmlFor={`import-mode-${value}`} className="grid gap-0.5">
                  <span>{label}</span>
                  <span className="text-xs font-normal text-muted-foreground">{hint}</span>
                </Label>
              </div>
            ))}
          </fieldset>
          {problem ? (
            <Alert variant="destructive">
              <CircleAlert aria-hidden />
              <AlertTitle>{problem.title}</AlertTitle>
              <AlertDescription>
                <ul className="grid gap-0.5" aria-label="Import errors">
                  {problem.lines.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </AlertDescription>
            </Alert>
          ) : null}
          <DialogFooter>
            <Button type="submit" disabled={importer.isPending}>
              {importer.isPending ? 'Importing...' : 'Import'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
