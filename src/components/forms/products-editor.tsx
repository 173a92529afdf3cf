import { LIMITS } from "@convex/lib/validation";
import { FieldsetList } from "./fieldset-list";
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
  return (
    <FieldsetList
      items={products}
      onChange={onChange}
      keyOf={(product) => product.id}
      nameOf={(_, index) => `product ${index + 1}`}
      newItem={newProductDraft}
      addLabel="Add product"
      max={LIMITS.products}
      empty="No products yet."
      error={errors.products}
      legend
      rowClassName="grid gap-4 sm:grid-cols-2"
      renderItem={(product, index, edit) => (
        <>
          <TextField
            label="Name"
            name={`products.${index}.name`}
            value={product.name}
            onChange={(name) => edit({ name })}
            error={errors[`products.${index}.name`]}
            max={LIMITS.productName}
          />
          <TextField
            label="Price"
            name={`products.${index}.price`}
            value={product.price}
            onChange={(price) => edit({ price })}
            error={errors[`products.${index}.price`]}
            hint="In dollars, like 24 or 24.99."
            placeholder="24.99"
          />
          <ImageUrlField
            label="Image link"
            name={`products.${index}.imageUrl`}
            value={product.imageUrl}
            onChange={(imageUrl) => edit({ imageUrl })}
            error={errors[`products.${index}.imageUrl`]}
            optional
            shape="square"
          />
          <TextField
            label="Description"
            name={`products.${index}.description`}
            value={product.description}
            onChange={(description) => edit({ description })}
            error={errors[`products.${index}.description`]}
            max={LIMITS.productDescription}
            multiline
            rows={3}
            optional
          />
        </>
      )}
    />
  );
}
