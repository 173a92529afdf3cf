import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { LIMITS } from "@convex/lib/validation";
import { ImageUrlField } from "./image-url-field";
import { TextField } from "./text-field";

export type ProductDraft = { id: string; name: string; price: string; imageUrl: string; description: string };

export function newProductDraft(): ProductDraft {
  return { id: crypto.randomUUID(), name: "", price: "", imageUrl: "", description: "" };
}

type ProductsEditorProps = {
  products: ProductDraft[];
  onChange: (products: ProductDraft[]) => void;
  /** Errors by path (`products.0.price`), from the shared schema. */
  errors: Record<string, string>;
};

/** Products as a shop or stream lists them: name, price as a money string, image and description. */
export function ProductsEditor({ products, onChange, errors }: ProductsEditorProps) {
  const edit = (index: number, patch: Partial<ProductDraft>) =>
    onChange(products.map((product, i) => (i === index ? { ...product, ...patch } : product)));
  return (
    <div className="space-y-4">
      {products.length === 0 && (
        <p className="text-sm text-slate-500 dark:text-slate-400">No products yet.</p>
      )}
      {products.map((product, index) => (
        <fieldset
          key={product.id}
          className="grid gap-4 rounded-xl border border-slate-200 p-4 sm:grid-cols-2 dark:border-slate-800"
        >
          <legend className="px-1 text-sm font-semibold">Product {index + 1}</legend>
          <TextField
            label="Name"
            name={`products.${index}.name`}
            value={product.name}
            onChange={(name) => edit(index, { name })}
            error={errors[`products.${index}.name`]}
            max={LIMITS.productName}
          />
          <TextField
            label="Price"
            name={`products.${index}.price`}
            value={product.price}
            onChange={(price) => edit(index, { price })}
            error={errors[`products.${index}.price`]}
            hint="In dollars, like 24 or 24.99."
            placeholder="24.99"
          />
          <ImageUrlField
            label="Image link"
            name={`products.${index}.imageUrl`}
            value={product.imageUrl}
            onChange={(imageUrl) => edit(index, { imageUrl })}
            error={errors[`products.${index}.imageUrl`]}
            optional
            shape="square"
          />
          <TextField
            label="Description"
            name={`products.${index}.description`}
            value={product.description}
            onChange={(description) => edit(index, { description })}
            error={errors[`products.${index}.description`]}
            max={LIMITS.productDescription}
            multiline
            rows={3}
            optional
          />
          <Button
            variant="ghost"
            size="sm"
            className="justify-self-start text-red-700 dark:text-red-300"
            onClick={() => onChange(products.filter((_, i) => i !== index))}
          >
            <Icon name="lucide:trash-2" className="size-4" />
            Remove product {index + 1}
          </Button>
        </fieldset>
      ))}
      {errors.products && <p className="text-sm text-red-700 dark:text-red-300">{errors.products}</p>}
      <Button
        variant="outline"
        size="sm"
        disabled={products.length >= LIMITS.products}
        onClick={() => onChange([...products, newProductDraft()])}
      >
        <Icon name="lucide:plus" className="size-4" />
        Add product
      </Button>
    </div>
  );
}
